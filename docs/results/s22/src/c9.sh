#!/bin/bash
# session 22, call 9: the final tree (the review's fixes: 256-byte aligned parts of the
# streamed forms' buffer and a size overflow check; the shim's posv takes its three CPU
# routines at one width; testers: ILP64 info/iter checked in all 64 bits, pinned arrays and
# D = I for the host least squares). The shim's testers, testing_preload.sh, testing_wls,
# d/s syrk_diag, testing_host, memcheck of the quick wls, dsyrk_diag and shim --ilp64 suites,
# bench_syrk_diag_host in double.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
export OPENBLAS_NUM_THREADS=4
( run wls ./testing/testing_wls --suite ) &
( run dsyrk_diag ./testing/testing_dsyrk_diag --suite; run host ./testing/testing_host ) &
( run ssyrk_diag ./testing/testing_ssyrk_diag --suite ) &
( run memcheck_wls_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick; run memcheck_dsyrk_diag_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_dsyrk_diag --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
run shim ./testing/testing_lapack_shim --suite
run shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run shim_cpu64 env GCHOL_LAPACK_CPU_LIB=$PWD/testing/cpu64_lapack.so ./testing/testing_lapack_shim --suite --quick --cpu64
run shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
run shim_ilp64_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback --ilp64
run preload sh testing/testing_preload.sh
run memcheck_shim_ilp64_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_lapack_shim --quick --ilp64
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" -A1 $R/*.log | head -30
run bench_host_d ./benchmarks/bench_syrk_diag_host --prec d --runs 3
cat $R/bench_host_d.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
