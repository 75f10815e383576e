#!/bin/bash
# session 20, call 2: the LAPACK shim on the GPU. Its tester (GPU paths), the same with the GPU
# hidden (fallback), the LD_PRELOAD test and memcheck of the quick suite run side by side; then
# bench_lapack_shim alone (double, single): OpenBLAS vs the shim's GPU path vs cuSOLVER by hand.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=4
( timeout 300 ./testing/testing_lapack_shim --suite > $R/testing_lapack_shim.log 2>&1; echo "rc=$?" >> $R/testing_lapack_shim.log ) &
( CUDA_VISIBLE_DEVICES= timeout 300 ./testing/testing_lapack_shim --suite --fallback > $R/testing_lapack_shim_hidden_gpu.log 2>&1; echo "rc=$?" >> $R/testing_lapack_shim_hidden_gpu.log ) &
( timeout 300 sh testing/testing_preload.sh > $R/testing_preload.log 2>&1; echo "rc=$?" >> $R/testing_preload.log ) &
( timeout 300 compute-sanitizer --tool memcheck ./testing/testing_lapack_shim --suite --quick > $R/memcheck_lapack_shim.log 2>&1; echo "rc=$?" >> $R/memcheck_lapack_shim.log ) &
wait
echo "tests t=$((SECONDS-S))"
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/*.log | head -20
grep -h "LD_PRELOAD" $R/testing_preload.log
unset OPENBLAS_NUM_THREADS
timeout $((590-SECONDS)) ./benchmarks/bench_lapack_shim --prec d --csv $R/bench_lapack_shim_d.csv > $R/bench_lapack_shim_d.log 2>&1; echo "bench d rc=$? t=$((SECONDS-S))"
cat $R/bench_lapack_shim_d.log
timeout $((590-SECONDS)) ./benchmarks/bench_lapack_shim --prec s --csv $R/bench_lapack_shim_s.csv > $R/bench_lapack_shim_s.log 2>&1; echo "bench s rc=$? t=$((SECONDS-S))"
cat $R/bench_lapack_shim_s.log
rm -f $R/build.log; gzip -9 -n $R/testing_*.log $R/memcheck_*.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
