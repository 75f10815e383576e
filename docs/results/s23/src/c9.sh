#!/bin/bash
# session 23, call 9: the shim's runs of `make test` on the final tree (LP64 suite, --ilp64,
# --cpu64, the preload script, the GPU hidden); single precision's new block sizes through the
# host interface (bench_potrf --host-pinned, checked) and pftrf's fused form (bench_pftrf, four
# variants, checked) at 12289 / 20481; then issue 3's full auto sweep (median of 5, cuSOLVER in
# the same process), and double's recnb at 20480 / 22528.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 env GCHOL_LAPACK_CPU_LIB=$PWD/testing/cpu64_lapack.so ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
grep -h "FAILED" $R/testing_*.log | head
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 12289,20481 --prec s --uplo LU --host-pinned --niter 3 > $R/host_s_new_nb.log 2>&1
echo "host s t=$((SECONDS-S)): $(grep -c 'ok (check' $R/host_s_new_nb.log) ok, $(grep -ci 'fail' $R/host_s_new_nb.log) failed"
timeout $((590-SECONDS)) ./benchmarks/bench_pftrf --sizes 12289,20481 --prec s --all-rfp --form auto --runs 3 > $R/pftrf_s_new_nb.log 2>&1
echo "pftrf s rc=$? t=$((SECONDS-S)): $(grep -ci 'fail' $R/pftrf_s_new_nb.log) failed"; grep -vE '^#|^$' $R/pftrf_s_new_nb.log | cut -c1-140
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
echo "sweep rc=$? t=$((SECONDS-S))"
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s %s\n", $1,$2,$3,$9,$12,$15,$NF}'
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 20480,22528 --prec d --uplo L --variant left --lookahead on --nb 1024 --recnb 256,512 --niter 5 > $R/d_recnb.log 2>&1
echo "d recnb t=$((SECONDS-S))"; grep -E '^d ' $R/d_recnb.log | awk '{print $2, $6, $7, $9}'
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
