#!/bin/bash
# session 7, call 14: split plan charged for the partials' traffic (8192 x 32768 and 16384^2 no longer split); bench, suites
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c14; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag.log $R/bench_syrk_diag_s.log | cut -c1-150 | sed 's|^/root/out/c14/||'; echo "bench t=$((SECONDS-S))"
for t in dsyrk_diag ssyrk_diag; do timeout 120 ./testing/testing_$t --suite > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3; done
echo "done t=$((SECONDS-S))"
tar czf $OUT/c14.tgz -C $OUT c14 && rm -rf $R
