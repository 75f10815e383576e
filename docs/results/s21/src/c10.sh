#!/bin/bash
# session 21, call 10 (the final tree): racecheck of the quick wls suite (syrk_diag, pftrf and pftrs
# kernels under the new wls_rfp), memcheck of the quick dpftrf and dsyrk_diag suites.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
make -j16 lib testing/testing_wls testing/testing_dpftrf testing/testing_dsyrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((400-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$name.log | tail -1)"; }
run racecheck_wls compute-sanitizer --tool racecheck ./testing/testing_wls --suite --quick
run memcheck_dpftrf compute-sanitizer --tool memcheck ./testing/testing_dpftrf --suite --quick
run memcheck_dsyrk_diag compute-sanitizer --tool memcheck ./testing/testing_dsyrk_diag --suite --quick
grep -h "FAILED" $R/*.log | head
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
