#!/bin/bash
# session 10, call 5: single-precision tiled kernel, upper against lower after the 3xTF32 tile products: A/B of base (3xTF32 everywhere), fma (FFMA everywhere, as before), v1 (chain block on FFMA), v2 (chain block outlined for upper too), v3 (both), two rounds, ms
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=1024,2048,3072,4096,5120
for r in 1 2; do for v in base fma v1 v2 v3; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=./scratch/s10/bench_potrf_$v
  $b -n $N --prec s --uplo LU --niter 7 --csv $R/ab_${v}_$r.csv > $R/ab_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/ab_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
echo "t=$((SECONDS-S))"
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
