#!/bin/bash
# session 21, call 7 (the final tree: c6's plus testing_preload.sh's check/check_said merged):
# testing_preload.sh and the shim's tester on the GPU.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 lib testing/testing_lapack_shim testing/preload_probe testing/shim_probe testing/shim_plugin.so testing/fault_engine.so > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim ./testing/testing_lapack_shim --suite
grep -h "FAILED" $R/*.log | head; cat $R/testing_preload.log | cut -c1-150
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
