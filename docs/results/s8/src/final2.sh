#!/bin/bash
# session 8, final call 2: A*D^2*A^T both precisions against cuBLAS, contenders shuffled per round, 9 runs; single also against C in double
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 9 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 9 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
grep -vE '^$' $R/bench_syrk_diag_s.log $R/bench_syrk_diag.log | grep -v "^[^:]*:# [a-z]" | cut -c1-160 | sed 's|^/root/out/final2/||'; echo "bench t=$((SECONDS-S))"
timeout 60 ./testing/testing_ssyrk_diag -m 1024,4096,8192 -n 65536,4096 --d rand > $R/acc_s.log 2>&1; grep -vE '^#|^$' $R/acc_s.log | cut -c1-120
tar czf $OUT/final2.tgz -C $OUT final2 && rm -rf $R
