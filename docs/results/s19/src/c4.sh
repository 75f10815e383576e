#!/bin/bash
# session 19, call 4 (final library code): bench_wls against cuBLAS + cuSOLVER (one and 16
# right-hand sides), a re-measure of the small potrf sizes with 9 timed runs (c1's single lower
# 1024 row was slowed for both contenders), racecheck of testing_wls's quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 150 ./benchmarks/bench_wls --mn 1024x65536,4096x65536,8192x32768,16384x32768,16384x16384 --niter 5 --csv $R/bench_wls.csv > $R/bench_wls.log 2>&1
echo "bench_wls rc=$? t=$((SECONDS-S))"; grep -vE '^#' $R/bench_wls.log | grep -v '^$' | cut -c1-220
timeout 60 ./benchmarks/bench_wls --mn 4096x65536,8192x32768,16384x32768 --nrhs 16 --no-gels --niter 5 --csv $R/bench_wls_16.csv > $R/bench_wls_16.log 2>&1
echo "bench_wls nrhs 16 rc=$? t=$((SECONDS-S))"; grep -vE '^#' $R/bench_wls_16.log | grep -v '^$' | cut -c1-220
timeout 45 ./benchmarks/bench_potrf -n 1024,2048 --prec ds --uplo LU --variant auto --niter 9 --csv $R/bench_small.csv > $R/bench_small.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_small.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; echo "small t=$((SECONDS-S))"
timeout $((390-SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_wls --suite --quick > $R/racecheck_wls.log 2>&1
echo "racecheck wls quick: rc=$? $(grep '^SUMMARY' $R/racecheck_wls.log | head -1) | $(grep -E 'RACECHECK SUMMARY' $R/racecheck_wls.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
