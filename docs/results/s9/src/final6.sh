#!/bin/bash
# session 9, final call 6: the final tree exactly: swap checks; make test; memcheck spotrf/dpotrf quick; racecheck of the swap path; the sweep with cuSOLVER, all in one run
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final6; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./scratch/s9/swapbench2 > $R/swapbench2.log 2>&1; grep -E "checks|n=8192 lda=n\\+0|n=32768 lda=n\\+0" $R/swapbench2.log
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf dpotrf; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"
done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --upper swap --variant left --lookahead on --nb 512 --recnb 512 --niter 1 > $R/racecheck_swap.log 2>&1; echo "racecheck swap: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_swap.log)"
echo "sanitizers t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 1024,2048,4096,6144,7168,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $R/gpu.txt
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final6.tgz -C $OUT final6 && rm -rf $R
