#!/bin/bash
# session 19, call 1: the full auto sweep for issue 3's closing table (1024-40960, both precisions
# and triangles, k*512+-1 sizes), then racecheck of testing_dsposv's quick suite, which session 18
# could not finish inside 60 s. The library is session 18's with mixed_prec.cu's reductions merged
# (block_max, row_abs_sums) and syrk_diag.cu's new TF32-with-d instantiation; potrf code unchanged.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 lib benchmarks/bench_potrf testing/testing_dsposv > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 330 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
echo "sweep rc=$? t=$((SECONDS-S))"
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'
timeout $((560-SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/racecheck_dsposv.log 2>&1
echo "racecheck dsposv quick: rc=$? $(tail -1 $R/racecheck_dsposv.log | cut -c1-80) | $(grep -E 'RACECHECK SUMMARY' $R/racecheck_dsposv.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
