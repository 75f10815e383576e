#!/bin/bash
# session 8, call 10: the last term (panel stream) on the 3xTF32 kernel too (build "last") against the bulk only (current)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c10; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout 150 scratch/s8/tsp_last --suite > $R/test_spotrf_last.log 2>&1; echo "spotrf last: $(grep SUMMARY $R/test_spotrf_last.log)"; grep FAILED $R/test_spotrf_last.log | head -3 | cut -c1-200
for v in cur last cur last; do
  B=./benchmarks/bench_potrf; [ $v = last ] && B=scratch/s8/bench_potrf_last
  $B -n 8192,12288,16384,24576,32768,40960 --prec s --uplo LU --niter 3 --csv $R/sweep_$v$SECONDS.csv > $R/sweep_$v.log 2>&1
  echo "== $v"; grep -E "^s " $R/sweep_$v.log | cut -c1-100
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
