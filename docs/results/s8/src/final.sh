#!/bin/bash
# session 8, final call: make test; memcheck of the syrk_diag quick suites; racecheck table runs; A*D^2*A^T both precisions against cuBLAS
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in ssyrk_diag dsyrk_diag; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"
done; echo "memcheck t=$((SECONDS-S))"
for args in "-m 129,300 -n 513,1000" "-m 300 -n 513 --rfp T --uplo U" "-m 257 -n 40 --d I --beta 1" "-m 64 -n 20000"; do
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_ssyrk_diag $args --niter 1 > /tmp/rc.log 2>&1
  echo "racecheck ssyrk_diag $args: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok, $(grep -cE 'FAILED' /tmp/rc.log) FAILED | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck_ssyrk_diag.log
done; echo "racecheck t=$((SECONDS-S))"
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag_s.log $R/bench_syrk_diag.log | cut -c1-150 | sed 's|^/root/out/final/||'; echo "bench t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final.tgz -C $OUT final && rm -rf $R
