#!/bin/bash
# session 12, final call C (tree after call 8: single upper's FFMA worker update removed): make test; the
# issue-3 sweep again on this tree (both precisions and triangles, 1024-40960, cuSOLVER in the same
# process); racecheck tiled s U 1000 and s U 3000; memcheck of the spotrf quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalC; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_potrf -n 1024,2048,4096,6144,7168,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste - - - -; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
for n in 1000 3000; do timeout 40 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n $n --uplo U --variant tiled --niter 1 > $R/racecheck_sU$n.log 2>&1
  echo "racecheck s U $n: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_sU$n.log) t=$((SECONDS-S))"; done
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf quick: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log) t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalC.tgz -C $OUT finalC && rm -rf $R
