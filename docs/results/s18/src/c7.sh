#!/bin/bash
# session 18, call 7 (final tree, after helper-17's review): testing_host (new GPU test of dsposv's kernels
# against LAPACKE_dlansy), testing_dsposv --suite (bigother, nan_B kinds; non-finite norms stop at once),
# memcheck of its quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"; grep -E "dsposv kernels|FAILED" $R/testing_host.log | head -10
timeout 100 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
grep -E "FAILED|bigother|nan_B" $R/testing_dsposv.log | head -12
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/memcheck_dsposv.log 2>&1
echo "memcheck dsposv quick: rc=$? $(grep SUMMARY $R/memcheck_dsposv.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dsposv.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
