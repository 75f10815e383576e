#!/bin/bash
# session 14, call 2: where potf2_panel's (c) runs (GCHOL_AB_LOOK, temporary): 0 none (as HEAD), 1 every warp
# without (b) rows (call 1), 2 only the warps of schedulers without (b) rows, 3 (a) by the newest 8 columns only
# and no (c) (wrong factor: the bound). p9 x2; tiled d/s L 1024-3072 for 0 and 2, x2.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c2; mkdir -p $R
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab
make -j16 lib > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for m in 0 1 2 3; do $NV -DGCHOL_AB_LOOK=$m $P/p9.cu -o /tmp/ab/p9_$m & done
for m in 0 2; do mkdir -p /tmp/ab/$m; for k in potrf_tiled potf2; do $NV -DGCHOL_AB_LOOK=$m -c kernels/$k.cu -o /tmp/ab/$m/$k.cu.o & done; done; wait
for m in 0 2; do cp lib/libgchol.a /tmp/ab/lib$m.a; ar r /tmp/ab/lib$m.a /tmp/ab/$m/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$m.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$m; done
echo "build t=$((SECONDS-S))"
for r in 1 2; do for m in 0 1 2 3; do echo "== p9 mode $m run $r"; /tmp/ab/p9_$m; done; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for m in 0 2; do
  /tmp/ab/bench_$m -n 1024,2048,3072 --prec ds --uplo L --variant tiled --niter 7 > $R/tiled_${m}_$r.log 2>&1
  echo "$m.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${m}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
