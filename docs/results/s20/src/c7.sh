#!/bin/bash
# session 20, call 7 (the final tree: c5's plus the solve threshold's default, 4096 -> 2048): the
# shim's tests again, the host testers, the dsposv suite (potrs, posv), and memcheck of the quick
# shim and dsposv suites, one after another (the shim's out-of-memory case takes the device).
# API errors are not reported by memcheck here: the out-of-memory case's cudaMalloc fails on
# purpose (c2 listed those four); memory errors still are.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((560-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
run testing_host ./testing/testing_host
run testing_dsposv ./testing/testing_dsposv --suite
echo "tests t=$((SECONDS-S))"
run memcheck_lapack_shim compute-sanitizer --tool memcheck --report-api-errors no ./testing/testing_lapack_shim --suite --quick
run memcheck_dsposv compute-sanitizer --tool memcheck ./testing/testing_dsposv --suite --quick
echo "memcheck t=$((SECONDS-S))"
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
