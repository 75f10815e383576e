#!/bin/bash
# session 8, final call 4: the final tree (for_each shared by both fragment maps): make test; memcheck of the spotrf and ssyrk_diag quick suites; racecheck of the update path
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf ssyrk_diag; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"
done
for u in L U; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo $u --variant left --lookahead on --nb 1024 --recnb 512 --niter 1 > /tmp/rc.log 2>&1
  echo "racecheck spotrf 2500 $u: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck_spotrf.log
done
./benchmarks/bench_syrk_diag --prec ds --runs 5 > $R/bench_syrk_diag.log 2>&1; grep -vE "^#|^$" $R/bench_syrk_diag.log | cut -c1-150; echo "done t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final4.tgz -C $OUT final4 && rm -rf $R
