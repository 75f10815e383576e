#!/bin/bash
# session 10, call 9: single precision's tiled -> left-looking switch after the 3xTF32 tile products: tiled against left 1024/1024 with lookahead (upper: tiled's view, left's swap from 6144), n = 5120-8192, two rounds, median of 7, ms
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=5120,5632,6144,6656,7168,7680,8192,9216
for r in 1 2; do
  ./benchmarks/bench_potrf -n $N --prec s --uplo LU --variant tiled --niter 7 --csv $R/tiled_$r.csv > $R/tiled_$r.log 2>&1
  echo "tiled.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/tiled_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
  ./benchmarks/bench_potrf -n $N --prec s --uplo LU --variant left --nb 1024 --recnb 1024 --lookahead on --niter 7 --csv $R/left_$r.csv > $R/left_$r.log 2>&1
  echo "left.$r  $(grep -E '^ *s +[0-9]+ [LU] ' $R/left_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done
echo "t=$((SECONDS-S))"
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
