#!/bin/bash
# session 11, call 8: the tiled kernel's grid capped in panel mode (GCHOL_TILED_PANEL_GRID = 66, 100, 120 blocks), leaving SMs to the main stream's gemm; auto d/s L 8192-16384 against the uncapped build
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
mkdir -p scratch/s11; cp kernels/potrf_tiled.cu kernels/_v_tmp.cu
for g in 66 100 120; do
  ( /usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -DGCHOL_TILED_PANEL_GRID=$g -c kernels/_v_tmp.cu -o /tmp/pt_g$g.o && gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pt_g$g.o $LIBS -o scratch/s11/bench_potrf_g$g ) &
done; wait; rm kernels/_v_tmp.cu
echo "build t=$((SECONDS-S))"
for r in 1 2; do for v in new g66 g100 g120; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s11/bench_potrf_$v
  $b -n 8192,12288,16384 --prec ds --uplo L --niter 5 --csv $R/${v}_$r.csv > $R/${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
