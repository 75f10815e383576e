#!/bin/bash
# session 8, call 7: spotrf's left-looking bulk update on the 3xTF32 syrk kernel (lower, plain matrices); suites; sweep new vs old (cuBLAS) build
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for t in spotrf spftrf ssyrk_diag; do
  timeout 120 ./testing/testing_$t --suite > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3 | cut -c1-200
done; echo "t=$((SECONDS-S))"
for v in new old new; do
  B=./benchmarks/bench_potrf; [ $v = old ] && B=scratch/s8/bench_potrf_old
  $B -n 8192,12288,16384,24576,32768 --prec s --uplo LU --niter 3 --csv $R/sweep_$v.csv > $R/sweep_$v.log 2>&1
  echo "== $v"; grep -E "^s " $R/sweep_$v.log | cut -c1-120
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
