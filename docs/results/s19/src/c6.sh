#!/bin/bash
# session 19, call 6 (final tree): host_call.c now carries the host forms of potrs, pftrs and
# dsposv: testing_host, testing_dsposv --suite (host potrs, host dsposv), the quick pftrf suites
# of both precisions (host pftrs), memcheck of testing_dsposv --quick.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
timeout 60 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
timeout 45 ./testing/testing_dpftrf --suite --quick > $R/quick_dpftrf.log 2>&1; echo "dpftrf quick rc=$? $(tail -1 $R/quick_dpftrf.log) t=$((SECONDS-S))"
timeout 45 ./testing/testing_spftrf --suite --quick > $R/quick_spftrf.log 2>&1; echo "spftrf quick rc=$? $(tail -1 $R/quick_spftrf.log) t=$((SECONDS-S))"
grep -E "FAILED" $R/*.log | head -5; grep -cE "host" $R/quick_dpftrf.log
timeout $((200-SECONDS)) compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/memcheck_dsposv.log 2>&1
echo "memcheck dsposv quick: rc=$? $(grep '^SUMMARY' $R/memcheck_dsposv.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dsposv.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
