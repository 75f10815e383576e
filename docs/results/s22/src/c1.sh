#!/bin/bash
# session 22, call 1: the LAPACK shim's ILP64 symbols on the GPU. The shim's
# tester LP64 (full suite, device memory exhausted included), --ilp64 (full),
# --cpu64 (quick, over the stand-in ILP64 CPU LAPACK), --ilp64 with the GPU
# hidden, testing_preload.sh, and memcheck of the quick --ilp64 suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
make -j16 lib testing/testing_lapack_shim testing/preload_probe testing/shim_probe testing/shim_plugin.so testing/fault_engine.so testing/cpu64_lapack.so > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
run shim_lp64 ./testing/testing_lapack_shim --suite
run shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run shim_cpu64 env GCHOL_LAPACK_CPU_LIB=$PWD/testing/cpu64_lapack.so ./testing/testing_lapack_shim --suite --quick --cpu64
run shim_ilp64_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback --ilp64
run preload sh testing/testing_preload.sh
run memcheck_ilp64_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_lapack_shim --quick --ilp64
grep -h "ERROR SUMMARY" $R/memcheck_ilp64_quick.log
grep -h "FAILED" $R/*.log | head -20
grep -h "ILP64" $R/shim_ilp64.log $R/shim_cpu64.log | cut -c1-200
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
