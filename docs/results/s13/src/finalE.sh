#!/bin/bash
# session 13, final call E (tree 603e62a): double's next pivot as (a r)^2 (1 + h) without the underflow check
# (review), graded test matrices. A/B against e966d87's tile_factor.cuh (src/tile_factor_e966d87.cuh:
# git show e966d87:kernels/tile_factor.cuh, removed after the call): p9, tiled d/s L 1024-3072 x2;
# make test; racecheck two blocks per SM d L 1000; memcheck dpotrf quick; sweep 1024-8192 and 16384.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalE; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s13/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/oldsrc /tmp/two
cp kernels/potrf_tiled.cu kernels/potf2.cu $P/p9.cu /tmp/ab/oldsrc/; cp $D/tile_factor_e966d87.cuh /tmp/ab/oldsrc/tile_factor.cuh
for k in potrf_tiled potf2; do $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & done
$NV $P/p9.cu -o /tmp/ab/p9_new & $NV /tmp/ab/oldsrc/p9.cu -o /tmp/ab/p9_old & $NV -DGCHOL_TILED_ONE_BLOCK_UP_TO=256 -c kernels/potrf_tiled.cu -o /tmp/two/pt.o & wait
cp lib/libgchol.a /tmp/ab/libold.a; ar r /tmp/ab/libold.a /tmp/ab/old/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/libold.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_D testing/testing_potrf.c testing/testing_common.c /tmp/two/pt.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/two/tD
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m=128"
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,3072 --prec ds --uplo L --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "ab t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null; grep -E "graded" $R/testing_dpotrf.log | awk '{print $1,$3,$6,$9,$12,$13,$16}' | head -8
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 /tmp/two/tD -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_two_dL.log 2>&1
echo "racecheck two_dL: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_two_dL.log) t=$((SECONDS-S))"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick > $R/memcheck_dpotrf.log 2>&1
echo "memcheck dpotrf quick: rc=$? $(grep SUMMARY $R/memcheck_dpotrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dpotrf.log) t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 1024,2048,4096,8192,16384 --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste - - - -; echo "sweep t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/finalE.tgz -C $OUT finalE && rm -rf $R
