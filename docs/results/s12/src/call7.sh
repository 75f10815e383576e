#!/bin/bash
# session 12, call 7: do the switches move with the shorter chain step? tiled (default build, and a build
# with one block per SM up to 8448: -DGCHOL_TILED_ONE_BLOCK_UP_TO=8448) against auto: d L/U 4608-7168,
# s L/U 7168-10240.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
mkdir -p /tmp/ab; $NV -DGCHOL_TILED_ONE_BLOCK_UP_TO=8448 -c kernels/potrf_tiled.cu -o /tmp/ab/ob.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/ob.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_ob
echo "build t=$((SECONDS-S))"
for r in 1 2; do
for p in d s; do
  [ $p = d ] && N=4608,5376,6144,7168 || N=7168,8192,8448,9216,10240
  for v in auto tiled; do ./benchmarks/bench_potrf -n $N --prec $p --uplo LU --variant $v --niter 5 > $R/${p}_${v}_$r.log 2>&1
    echo "$p $v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/${p}_${v}_$r.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"; done
  /tmp/ab/bench_ob -n $N --prec $p --uplo LU --variant tiled --niter 5 > $R/${p}_tiledob_$r.log 2>&1
  echo "$p tiled-ob.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/${p}_tiledob_$r.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
