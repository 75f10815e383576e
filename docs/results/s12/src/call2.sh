#!/bin/bash
# session 12, call 2: (1) potf2 stores each row of its 8 x 8 diagonal block from that row's thread
# (was: thread 0 stored all 36); (2) the chain block's W -= X X^T on the 20 lower m16n8 tiles only.
# Variants: new = both; v1 = neither (HEAD 832c4d0: its tile_factor.cuh, -DGCHOL_AB_FULL_SYRK);
# v2 = (1) only (-DGCHOL_AB_FULL_SYRK). p9 cycles new / head; tiled d/s L/U 1024-4096 x2;
# auto d/s L 8192-16384 new / v1; d/s potrf suites on new. src/tile_factor_832c4d0.cuh held
# `git show 832c4d0:kernels/tile_factor.cuh` (removed after the call).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/kh /tmp/ab; mkdir -p /tmp/ab; cp -r kernels /tmp/kh; cp docs/results/s12/src/tile_factor_832c4d0.cuh /tmp/kh/tile_factor.cuh
$NV -I/tmp/kh -DGCHOL_AB_FULL_SYRK -c /tmp/kh/potrf_tiled.cu -o /tmp/ab/v1.o &
$NV -Ikernels -DGCHOL_AB_FULL_SYRK -c kernels/potrf_tiled.cu -o /tmp/ab/v2.o &
$NV -Ikernels docs/results/s12/src/p9.cu -o /tmp/ab/p9_new &
$NV -I/tmp/kh docs/results/s12/src/p9.cu -o /tmp/ab/p9_head &
wait
for v in v1 v2; do gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/$v.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v; done
echo "build t=$((SECONDS-S))"
for v in new head; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log
for r in 1 2; do for v in new v1 v2; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for r in 1 2; do for v in new v1; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,12288,16384 --prec ds --uplo L --niter 5 --csv $R/auto_${v}_$r.csv > $R/auto_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
rm -f $R/build.log
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
