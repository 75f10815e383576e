#!/bin/bash
# session 14, call 8: the tiled switches after call 7 (left 1024 / 1024 beat tiled at 5120-6656 in double):
# double tiled / left 1024 / 1024 / left 512 / 512 at 3584-5120; single tiled / left 1024 / 1024 at 6656-8448;
# both triangles, two runs, median of 5.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
B=./benchmarks/bench_potrf; echo "build t=$((SECONDS-S))"
row() { grep -E '^ *[ds] +[0-9]+ [LU] ' $1 | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}'; }
for r in 1 2; do for v in tiled left1024 left512; do
  case $v in tiled) x="--variant tiled";; left1024) x="--variant left --lookahead on --nb 1024 --recnb 1024";; left512) x="--variant left --lookahead on --nb 512 --recnb 512";; esac
  $B -n 3584,4096,4608,5120 --prec d --uplo LU $x --niter 5 > $R/d_${v}_$r.log 2>&1; echo "d $v.$r $(row $R/d_${v}_$r.log)"; done; done
for r in 1 2; do for v in tiled left1024; do
  case $v in tiled) x="--variant tiled";; left1024) x="--variant left --lookahead on --nb 1024 --recnb 1024";; esac
  $B -n 6656,7168,7680,8192 --prec s --uplo LU $x --niter 5 > $R/s_${v}_$r.log 2>&1; echo "s $v.$r $(row $R/s_${v}_$r.log)"; done; done
echo "t=$((SECONDS-S))"; rm -f $R/build.log
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
