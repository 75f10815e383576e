#!/bin/bash
# session 23, call 11: gchol_dswls (the host form of dswls): testing_wls --suite (its 'dswls
# host' rows and argument checks), testing_dhost_bounds (its guard-page cases) both copy paths,
# memcheck of the quick wls suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c11; mkdir -p $R
make -j16 lib testing/testing_wls testing/testing_dhost_bounds > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
run() { name=$1; shift; timeout $((580-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
export OPENBLAS_NUM_THREADS=4
( run testing_wls ./testing/testing_wls --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick ) &
( run memcheck_wls compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick ) &
wait
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" -A1 $R/*.log | head -20
grep -h "dswls host\|^  .*dswls m=" $R/testing_wls.log $R/testing_dhost_bounds.log | head -40
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
