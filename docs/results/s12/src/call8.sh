#!/bin/bash
# session 12, call 8: single upper at 1024 ran 10.9% behind lower in final B. Its workers' update is FFMA up
# to n = 3072 (kUpperFfmaUpdateMaxN, chosen in session 10 against 3xTF32): the build as is (3072) against
# builds with 0 (3xTF32 everywhere) and 1536; tiled s L/U 1024-4096, x3.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
mkdir -p /tmp/ab
for v in 0 1536; do $NV -DGCHOL_AB_UPPER_FFMA_MAX_N=$v -c kernels/potrf_tiled.cu -o /tmp/ab/u$v.o & done; wait
for v in 0 1536; do gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/u$v.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_u$v; done
echo "build t=$((SECONDS-S))"
for r in 1 2 3; do for v in 3072 0 1536; do
  b=./benchmarks/bench_potrf; [ $v != 3072 ] && b=/tmp/ab/bench_u$v
  $b -n 1024,2048,3072,4096 --prec s --uplo LU --variant tiled --niter 7 > $R/s_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/s_${v}_$r.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
