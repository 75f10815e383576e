#!/bin/bash
# session 10, call 7: single upper in the tiled kernel, which worker product is slower on 3xTF32 at small n: base (3xTF32), v4 (upper's workers on FFMA: update and product by U), v6 (the update only), v7 (the product by U only), two rounds, ms
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=1024,2048,3072,4096,5120
for r in 1 2; do for v in base v4 v6 v7; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=./scratch/s10/bench_potrf_$v
  $b -n $N --prec s --uplo LU --niter 7 --csv $R/ab_${v}_$r.csv > $R/ab_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/ab_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
echo "t=$((SECONDS-S))"
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
