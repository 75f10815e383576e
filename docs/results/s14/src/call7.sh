#!/bin/bash
# session 14, call 7: the blocked driver's nb / recnb in double, lower, after the faster panels (calls 4, 6):
# 12288, 16384 (median of 5) and 32768 (median of 3) over a few pairs; the tiled switch in double (tiled
# against left 1024 / 1024 at 5120-6656, two runs).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
B=./benchmarks/bench_potrf; echo "build t=$((SECONDS-S))"
row() { grep -E '^ *[ds] +[0-9]+ [LU] ' $1 | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}'; }
for p in "1024 512" "1024 1024" "768 384" "1280 640" "1536 768" "1536 512" "2048 512" "2048 1024"; do set -- $p
  $B -n 12288,16384 --prec d --uplo L --variant left --lookahead on --nb $1 --recnb $2 --niter 5 > $R/nb_$1_$2.log 2>&1
  echo "nb $1 recnb $2: $(row $R/nb_$1_$2.log) t=$((SECONDS-S))"; done
for p in "1024 256" "1024 512" "1536 256" "1536 512" "2048 256" "2048 512"; do set -- $p
  $B -n 32768 --prec d --uplo L --variant left --lookahead on --nb $1 --recnb $2 --niter 3 > $R/big_$1_$2.log 2>&1
  echo "nb $1 recnb $2: $(row $R/big_$1_$2.log) t=$((SECONDS-S))"; done
for r in 1 2; do for v in tiled left; do x=""; [ $v = left ] && x="--lookahead on --nb 1024 --recnb 1024"
  $B -n 5120,5632,6144,6656 --prec d --uplo LU --variant $v $x --niter 5 > $R/switch_${v}_$r.log 2>&1
  echo "$v.$r $(row $R/switch_${v}_$r.log)"; done; done
echo "t=$((SECONDS-S))"; rm -f $R/build.log
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
