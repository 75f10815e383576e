#!/bin/bash
# session 19, call 5 (final tree): after refine.c (dsposv's and dswls's shared host steps) and
# testing_median: testing_host, testing_dsposv and testing_wls suites, memcheck of both quick
# suites, and each tester's table mode once (the median moved to testing_common).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
timeout 80 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
timeout 60 ./testing/testing_wls --suite > $R/testing_wls.log 2>&1; echo "wls --suite rc=$? $(tail -1 $R/testing_wls.log) t=$((SECONDS-S))"
grep FAILED $R/testing_*.log | head -5
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/memcheck_dsposv.log 2>&1
echo "memcheck dsposv quick: rc=$? $(grep '^SUMMARY' $R/memcheck_dsposv.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dsposv.log) t=$((SECONDS-S))"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_wls --suite --quick > $R/memcheck_wls.log 2>&1
echo "memcheck wls quick: rc=$? $(grep '^SUMMARY' $R/memcheck_wls.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_wls.log) t=$((SECONDS-S))"
{ ./testing/testing_dpotrf -n 2000,5000 --niter 3 --check; ./testing/testing_spftrf -n 3000 --niter 3; ./testing/testing_dsyrk_diag -m 1024 -n 8192 --niter 3; \
  ./testing/testing_dsposv -n 4096 --niter 3; ./testing/testing_wls -m 2048 -n 16384 --niter 3; } > $R/tables.log 2>&1
echo "tables: $(grep -c ' ok' $R/tables.log) ok, $(grep -c FAILED $R/tables.log) FAILED t=$((SECONDS-S))"; grep -E "SUMMARY" $R/tables.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
