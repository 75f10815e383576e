#!/bin/bash
# session 22, call 12: the final tree after the closing review's two mends in src/host_stream.c
# (one copy of C's stored part for both directions, which also stops the RFP upload from reading
# past the caller's array; the job carries rfp instead of a derived output map): every tester
# that reaches the streamed host forms, full suites, and memcheck of their quick suites.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c12; mkdir -p $R
make -j16 lib testing/testing_wls testing/testing_dsyrk_diag testing/testing_ssyrk_diag testing/testing_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
export OPENBLAS_NUM_THREADS=4
( run wls ./testing/testing_wls --suite ) &
( run dsyrk_diag ./testing/testing_dsyrk_diag --suite; run host ./testing/testing_host ) &
( run ssyrk_diag ./testing/testing_ssyrk_diag --suite ) &
( run memcheck_wls_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick; run memcheck_ssyrk_diag_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_ssyrk_diag --suite --quick ) &
wait
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" -A1 $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c12.tgz -C $OUT c12 && rm -rf $R
