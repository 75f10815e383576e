#!/bin/bash
# session 9, call 4: the swap block by block beside the left-looking lookahead: range checks and GB/s; potrf suites + memcheck; A/B view/swap sweeps
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv | tee $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./scratch/s9/swapbench2 > $R/swapbench2.log 2>&1; cat $R/swapbench2.log
for p in s d; do ./testing/testing_${p}potrf --suite > $R/suite_$p.log 2>&1; echo "suite $p: $(grep SUMMARY $R/suite_$p.log) t=$((SECONDS-S))"; grep -E "FAILED" $R/suite_$p.log | head -5; done
for p in s d; do timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick > $R/memcheck_$p.log 2>&1; echo "memcheck $p: rc=$? $(grep SUMMARY $R/memcheck_$p.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$p.log)"; done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --upper swap --variant left --lookahead on --nb 512 --recnb 512 --niter 1 > $R/racecheck_swap.log 2>&1; echo "racecheck: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_swap.log)"
./benchmarks/bench_potrf -n 7168,8192,10240,12288,16384,24576,32768,40960 --prec s --uplo LU --upper both --niter 5 --csv $R/ab_s.csv > $R/ab_s.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] ' $R/ab_s.log | awk '{printf "%s %s %s %-16s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'; echo "t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 4608,8192,16384,32768 --prec d --uplo LU --upper both --niter 5 --csv $R/ab_d.csv > $R/ab_d.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] ' $R/ab_d.log | awk '{printf "%s %s %s %-16s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'; echo "done t=$((SECONDS-S))"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv | tee -a $R/gpu.txt
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
