#!/bin/bash
# session 14, call 3: potf2's DMMA inner update with 2 (HEAD), 4 or 8 independent k phases
# (GCHOL_AB_PHASES, temporary): p9 x2; tiled d/s L 1024-3072 x2; d potrf quick suite for 4 and 8.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c3; mkdir -p $R
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab
make -j16 lib > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
M="2 4 8"
for m in $M; do $NV -DGCHOL_AB_PHASES=$m $P/p9.cu -o /tmp/ab/p9_$m & done
for m in $M; do mkdir -p /tmp/ab/$m; for k in potrf_tiled potf2; do $NV -DGCHOL_AB_PHASES=$m -c kernels/$k.cu -o /tmp/ab/$m/$k.cu.o & done; done; wait
for m in $M; do cp lib/libgchol.a /tmp/ab/lib$m.a; ar r /tmp/ab/lib$m.a /tmp/ab/$m/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$m.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$m
gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_D testing/testing_potrf.c testing/testing_common.c /tmp/ab/lib$m.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/test_$m; done
echo "build t=$((SECONDS-S))"
for r in 1 2; do for m in $M; do echo "== p9 phases $m run $r"; /tmp/ab/p9_$m; done; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for m in $M; do
  /tmp/ab/bench_$m -n 1024,2048,3072 --prec ds --uplo L --variant tiled --niter 7 > $R/tiled_${m}_$r.log 2>&1
  echo "$m.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${m}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for m in 4 8; do /tmp/ab/test_$m --suite --quick > $R/quick_d_$m.log 2>&1; echo "quick dpotrf phases $m: $(grep SUMMARY $R/quick_d_$m.log)"; done
rm -f $R/build.log
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
