#!/bin/bash
# session 22, call 8: testing_wls with the host forms also on n = 0, nrhs = 0, a NaN in A
# and a NaN in B; memcheck of its quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 lib testing/testing_wls > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
( run wls ./testing/testing_wls --suite ) &
( run memcheck_wls_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick ) &
wait
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" -A1 $R/*.log | head -30
grep -hE "host.*(n=0|nan_A|nan_B)|   0 dwls host|   0 swls host" $R/wls.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
