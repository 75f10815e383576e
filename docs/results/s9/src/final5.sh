#!/bin/bash
# session 9, final call 5: the final tree exactly (after the swap kernel's refactor): make test; memcheck of the spotrf and dpotrf quick suites; racecheck of the swap path
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf dpotrf; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"
done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --upper swap --variant left --lookahead on --nb 512 --recnb 512 --niter 1 > $R/racecheck_swap.log 2>&1; echo "racecheck swap: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_swap.log)"
echo "done t=$((SECONDS-S))"
tar czf $OUT/final5.tgz -C $OUT final5 && rm -rf $R
