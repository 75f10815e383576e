#!/bin/bash
# session 8, final call 6: the final tree: make test; memcheck spotrf quick; racecheck of the upper update path; single upper sweep with cuSOLVER
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log)"
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --variant left --lookahead on --nb 1024 --recnb 512 --niter 1 > $R/racecheck_U.log 2>&1
echo "racecheck spotrf 2500 U: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_U.log)"
./benchmarks/bench_potrf -n 8191,8192,8193,12288,16384,24576,32768,40960 --prec s --uplo LU --variant auto --niter 5 --csv $R/bench_sweep_s.csv > $R/bench_sweep_s.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep_s.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; echo "done t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final6.tgz -C $OUT final6 && rm -rf $R
