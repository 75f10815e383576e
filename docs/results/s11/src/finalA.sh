#!/bin/bash
# session 11, final call A: the final tree's tests: make test; memcheck of the dpotrf and spotrf quick suites (the tiled kernel changed); racecheck of the tiled kernel, double lower and single upper (one block per SM: the chain block's prefetch) and single lower at 6000 (two blocks per SM)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalA; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in dpotrf spotrf; do
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log) t=$((SECONDS-S))"
done
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalA.tgz -C $OUT finalA && rm -rf $R
