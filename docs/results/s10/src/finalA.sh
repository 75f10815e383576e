#!/bin/bash
# session 10, final call A: the final tree's tests: make test; memcheck of the spotrf, dpotrf and spftrf quick suites; racecheck of the single tiled kernel (3xTF32 tile products, lower and upper) and of the swap path
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalA; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf dpotrf spftrf; do
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log) t=$((SECONDS-S))"
done
for u in L U; do
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo $u --variant tiled --niter 1 > $R/racecheck_tiled_$u.log 2>&1; echo "racecheck tiled $u: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_tiled_$u.log)"
done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --upper swap --variant left --lookahead on --nb 512 --recnb 512 --niter 1 > $R/racecheck_swap.log 2>&1; echo "racecheck swap: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_swap.log)"
echo "sanitizers t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalA.tgz -C $OUT finalA && rm -rf $R
