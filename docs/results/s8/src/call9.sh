#!/bin/bash
# session 8, call 9: upper update with 16-byte K-major copies into [row][k] stages (WarpTileK); suites, memcheck; sweep new vs old
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for t in spotrf spftrf; do
  timeout 150 ./testing/testing_$t --suite > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3 | cut -c1-200
done; echo "t=$((SECONDS-S))"
grep -E " (2500|4099|5000) " $R/test_spotrf.log | cut -c1-160
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log)"; echo "t=$((SECONDS-S))"
for v in new old; do
  B=./benchmarks/bench_potrf; [ $v = old ] && B=scratch/s8/bench_potrf_old
  $B -n 8192,12288,16384,24576,32768,40960 --prec s --uplo LU --niter 3 --csv $R/sweep_$v.csv > $R/sweep_$v.log 2>&1
  echo "== $v"; grep -E "^s " $R/sweep_$v.log | cut -c1-120
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
