#!/bin/bash
# session 14, call 9: the chain block fetches ahead (new): warps 4-7 load the next step's P and W and set its
# identity during potf2_panel (warps 0-3, named barriers), into a second panel and tile. Old: the tree before
# (src/potrf_tiled_c9old.cu, src/tile_factor_c9old.cuh; removed after the calls). Tiled d/s L/U 1024-4096 x2;
# auto d/s L 8192, 16384; d/s quick suites; racecheck / synccheck d L 1000, s U 1000; memcheck d quick.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s14/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/oldsrc
cp kernels/potf2.cu kernels/gchol_kernels.h kernels/tile_common.cuh /tmp/ab/oldsrc/; cp $D/potrf_tiled_c9old.cu /tmp/ab/oldsrc/potrf_tiled.cu; cp $D/tile_factor_c9old.cuh /tmp/ab/oldsrc/tile_factor.cuh
for k in potrf_tiled potf2; do $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & done; wait
cp lib/libgchol.a /tmp/ab/libold.a; ar r /tmp/ab/libold.a /tmp/ab/old/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/libold.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
cp benchmarks/bench_potrf /tmp/ab/bench_new
echo "build t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite --quick > $R/quick_${p}potrf.log 2>&1; echo "quick ${p}potrf: $(grep SUMMARY $R/quick_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/quick_${p}potrf.log | head -5; done
for r in 1 2; do for v in new old; do
  /tmp/ab/bench_$v -n 1024,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 7 > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do /tmp/ab/bench_$v -n 8192,16384 --prec ds --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for c in "d L" "s U"; do set -- $c; for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1 > $R/${tool}_$1$2.log 2>&1
  echo "$tool $1$2: rc=$? $(grep -E 'SUMMARY' $R/${tool}_$1$2.log | tail -1 | sed 's/warnings/warn/') t=$((SECONDS-S))"; done; done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick > $R/memcheck_dpotrf.log 2>&1
echo "memcheck dpotrf quick: rc=$? $(grep SUMMARY $R/memcheck_dpotrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dpotrf.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/quick_*.log $R/memcheck_*.log
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
