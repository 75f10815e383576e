#!/bin/bash
# session 18, call 6 (final tree): testing_host, testing_dsposv --suite, the full testing_spotrf suite
# (the update kernel's template gained the TF32 form; the default must be unchanged), the quick
# spftrf suite, racecheck and memcheck of testing_dsposv --quick; bench_potrf s/d L spot check.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
timeout 120 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
grep FAILED $R/testing_dsposv.log | head
timeout 200 ./testing/testing_spotrf --suite > $R/testing_spotrf.log 2>&1; echo "spotrf --suite rc=$? $(tail -1 $R/testing_spotrf.log) t=$((SECONDS-S))"
grep FAILED $R/testing_spotrf.log | head -5
timeout 60 ./testing/testing_spftrf --suite --quick > $R/quick_spftrf.log 2>&1; echo "spftrf --suite --quick rc=$? $(tail -1 $R/quick_spftrf.log) t=$((SECONDS-S))"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/racecheck_dsposv.log 2>&1
echo "racecheck dsposv quick: rc=$? $(grep SUMMARY $R/racecheck_dsposv.log | head -1) | $(grep -E 'RACECHECK SUMMARY' $R/racecheck_dsposv.log) t=$((SECONDS-S))"
timeout 60 ./benchmarks/bench_potrf -n 16384,32768 --prec ds --uplo L --variant auto --niter 3 --csv $R/bench_potrf.csv > $R/bench_potrf.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_potrf.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; echo "potrf t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
