#!/bin/bash
# session 14, call 1: potf2_panel with its inner update off the critical path ((c): the warps without
# rows in (b) update the next inner block by all but the newest columns; (a) then does 8 columns) (new)
# against HEAD's tile_factor.cuh / tile_common.cuh (old, src/*_head.cuh: git show 5d93191:kernels/...,
# removed after the calls): p9; tiled d/s L/U 1024-3072 x2; d/s potrf quick suites; racecheck d/s L 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s14/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/oldsrc
cp kernels/potrf_tiled.cu kernels/potf2.cu kernels/gchol_kernels.h $P/p9.cu /tmp/ab/oldsrc/; cp $D/tile_factor_head.cuh /tmp/ab/oldsrc/tile_factor.cuh; cp $D/tile_common_head.cuh /tmp/ab/oldsrc/tile_common.cuh
for k in potrf_tiled potf2; do $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & done
$NV $P/p9.cu -o /tmp/ab/p9_new & $NV /tmp/ab/oldsrc/p9.cu -o /tmp/ab/p9_old & wait
cp lib/libgchol.a /tmp/ab/libold.a; ar r /tmp/ab/libold.a /tmp/ab/old/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/libold.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,3072 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,16384 --prec ds --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite --quick > $R/quick_${p}potrf.log 2>&1; echo "quick ${p}potrf: $(grep SUMMARY $R/quick_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/quick_${p}potrf.log | head -5; done
for p in d s; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_${p}L1000.log 2>&1
  echo "racecheck ${p}L1000: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_${p}L1000.log) t=$((SECONDS-S))"; done
rm -f $R/build.log
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
