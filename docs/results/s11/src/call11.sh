#!/bin/bash
# session 11, call 11: one block per SM (with the chain block's prefetch) against two above 4608, now that the waits changed: a bench built with GCHOL_TILED_ONE_BLOCK_UP_TO=16384 against the default, tiled d/s L/U 4608-8192, and auto
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c11; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
cp kernels/potrf_tiled.cu kernels/_v_tmp.cu
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -DGCHOL_TILED_ONE_BLOCK_UP_TO=16384 -c kernels/_v_tmp.cu -o /tmp/pt_one.o || exit 1
rm kernels/_v_tmp.cu
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pt_one.o $LIBS -o /tmp/bench_one || exit 1
echo "build t=$((SECONDS-S))"
for r in 1 2; do for v in two one; do
  b=./benchmarks/bench_potrf; [ $v = one ] && b=/tmp/bench_one
  $b -n 4608,5120,6144,7168,8192 --prec ds --uplo LU --variant tiled --niter 5 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s  ", $1,$2,$3,$9}')"
done; done
./benchmarks/bench_potrf -n 4608,5120,6144 --prec d --uplo LU --niter 5 --csv $R/auto_d.csv > $R/auto_d.log 2>&1
echo "auto d $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_d.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
