#!/bin/bash
# session 9, call 3: the swap kernel with 8-byte runs for single (64 x 64 tiles): bit-exact checks and GB/s; spotrf suite + memcheck; single A/B view/swap sweep
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./scratch/s9/swapbench2 > $R/swapbench2.log 2>&1; cat $R/swapbench2.log
./testing/testing_spotrf --suite > $R/suite_s.log 2>&1; echo "suite s: $(grep SUMMARY $R/suite_s.log) t=$((SECONDS-S))"; grep -E "FAILED" $R/suite_s.log | head -5
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_s.log 2>&1; echo "memcheck s: rc=$? $(grep SUMMARY $R/memcheck_s.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_s.log)"
./benchmarks/bench_potrf -n 6144,7168,8192,10240,12288,16384,24576,32768,40960 --prec s --uplo LU --upper both --niter 5 --csv $R/ab_s.csv > $R/ab_s.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] ' $R/ab_s.log | awk '{printf "%s %s %s %-16s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'; echo "done t=$((SECONDS-S))"
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
