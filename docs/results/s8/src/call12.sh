#!/bin/bash
# session 8, call 12: single precision block sizes with the new update: nb x recnb at n = 8192 / 16384 / 32768, lower and upper; tiled vs left at 6144 / 7168
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c12; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for nr in 1024/1024 1024/512 768/768 1536/1024 2048/1024 512/512; do
  nb=${nr%/*}; rn=${nr#*/}
  ./benchmarks/bench_potrf -n 8192,16384 --prec s --uplo LU --variant left --lookahead on --nb $nb --recnb $rn --niter 5 > $R/grid_${nb}_${rn}.log 2>&1
  echo "nb $nb recnb $rn: $(grep -E '^s ' $R/grid_${nb}_${rn}.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; echo "t=$((SECONDS-S))"
for nr in 512/256 1024/256 1024/512; do
  nb=${nr%/*}; rn=${nr#*/}
  ./benchmarks/bench_potrf -n 32768 --prec s --uplo LU --variant left --lookahead on --nb $nb --recnb $rn --niter 3 > $R/grid32_${nb}_${rn}.log 2>&1
  echo "32768 nb $nb recnb $rn: $(grep -E '^s ' $R/grid32_${nb}_${rn}.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; echo "t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 6144,7168 --prec s --uplo LU --variant left --lookahead on --nb 1024 --recnb 1024 --niter 5 > $R/left_6144.log 2>&1
./benchmarks/bench_potrf -n 6144,7168 --prec s --uplo LU --variant tiled --niter 5 > $R/tiled_6144.log 2>&1
echo "left: $(grep -E '^s ' $R/left_6144.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"; echo "tiled: $(grep -E '^s ' $R/tiled_6144.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
echo "t=$((SECONDS-S))"
tar czf $OUT/c12.tgz -C $OUT c12 && rm -rf $R
