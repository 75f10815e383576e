#!/bin/bash
# session 20, call 8 (the final tree: c7's plus gchol_dsposv's host form uploading only A's
# triangle, and the Fortran case of testing_preload.sh, skipped without gfortran): the dsposv
# suite, the shim's tests, memcheck of the quick dsposv suite, one after another.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((300-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
run testing_dsposv ./testing/testing_dsposv --suite
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_preload sh testing/testing_preload.sh
run memcheck_dsposv compute-sanitizer --tool memcheck ./testing/testing_dsposv --suite --quick
echo "t=$((SECONDS-S))"
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED\|skipped" $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
