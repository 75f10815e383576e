#!/bin/bash
# session 21, call 9 (the final tree): compute-sanitizer memcheck over the quick suites of the
# testers the session did not already run it on (dpotrf, spotrf, dsposv, host), one at a time.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 lib testing/testing_dpotrf testing/testing_spotrf testing/testing_dsposv testing/testing_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((400-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1) $(grep 'ERROR SUMMARY' $R/$name.log | tail -1)"; }
run memcheck_dsposv compute-sanitizer --tool memcheck ./testing/testing_dsposv --suite --quick
run memcheck_host compute-sanitizer --tool memcheck ./testing/testing_host
run memcheck_dpotrf compute-sanitizer --tool memcheck ./testing/testing_dpotrf --suite --quick
run memcheck_spotrf compute-sanitizer --tool memcheck ./testing/testing_spotrf --suite --quick
grep -h "FAILED" $R/*.log | head
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
