#!/bin/bash
# session 14, call 6: the chain block's W -= L L^T (lower_product_sub) with each warp's 2-3 tiles in one 16-row
# block, their A fragment loaded (single: split) once per k step (new), against HEAD's tile_common.cuh (old,
# src/tile_common_head.cuh): tiled d/s L/U 1024-4096 x2; chainprof new/old; d/s quick suites; racecheck d/s L 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s14/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/oldsrc
cp kernels/potrf_tiled.cu kernels/potf2.cu kernels/gchol_kernels.h kernels/tile_factor.cuh $P/chainprof.cu /tmp/ab/oldsrc/; cp $D/tile_common_head.cuh /tmp/ab/oldsrc/tile_common.cuh
for k in potrf_tiled potf2; do $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & done
$NV -DGCHOL_TILED_PROFILE=20000 $P/chainprof.cu -o /tmp/ab/chainprof_new & $NV -DGCHOL_TILED_PROFILE=20000 /tmp/ab/oldsrc/chainprof.cu -o /tmp/ab/chainprof_old & wait
cp lib/libgchol.a /tmp/ab/libold.a; ar r /tmp/ab/libold.a /tmp/ab/old/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/libold.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
cp benchmarks/bench_potrf /tmp/ab/bench_new
echo "build t=$((SECONDS-S))"
for r in 1 2; do for v in new old; do
  /tmp/ab/bench_$v -n 1024,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 7 > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do /tmp/ab/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -E "avg|split|^[ds][LU] n= *(1024|4096)" $R/chainprof_$v.log | head -24; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite --quick > $R/quick_${p}potrf.log 2>&1; echo "quick ${p}potrf: $(grep SUMMARY $R/quick_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/quick_${p}potrf.log | head -5; done
for p in d s; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_${p}L1000.log 2>&1
  echo "racecheck ${p}L1000: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_${p}L1000.log | sed 's/warnings/warn/') t=$((SECONDS-S))"; done
rm -f $R/build.log; gzip -9 -n $R/quick_*.log
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
