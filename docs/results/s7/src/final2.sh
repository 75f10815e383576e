#!/bin/bash
# session 7, final call 2: the final code (split plan changed); make test, A*D^2*A^T bench both precisions
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag.log $R/bench_syrk_diag_s.log | cut -c1-150 | sed 's|^/root/out/final2/||'; echo "bench t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final2.tgz -C $OUT final2 && rm -rf $R
