#!/bin/bash
# session 10, final call C: the final tree exactly (after call 12 and the host auto test case): make test; memcheck of the spotrf, spftrf and dpftrf quick suites
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalC; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf spftrf dpftrf; do
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log) t=$((SECONDS-S))"
done
echo "sanitizers t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalC.tgz -C $OUT finalC && rm -rf $R
