#!/bin/bash
# session 21, call 4 (the final library): the LAPACK shim's tests after the review's fixes to the
# engine lookup (path taken at load time, RUNPATH $ORIGIN, rejected engine closed): the shim's
# tester, testing_preload.sh (engine and fault cases, relative preload + chdir), the hidden-GPU
# run, memcheck of the quick shim suite; then issue 3's full auto sweep (bench_potrf, 1023-40960
# with k*512+-1, d and s, L and U, median of 5) for the closing table.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S))"; }
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
run memcheck_lapack_shim compute-sanitizer --tool memcheck --report-api-errors no ./testing/testing_lapack_shim --suite --quick
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/*.log | head -20
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
echo "sweep rc=$? t=$((SECONDS-S))"
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
