#!/bin/bash
# session 12, call 3: potf2 learns of a failed pivot from the barrier's reduction (__syncthreads_or)
# instead of a shared word written by thread 0 and read after the barrier (old: -DGCHOL_AB_FLAG_LOAD);
# p9 cycles new / old; p10 phase stamps of potf2 (warp 0 and a row below); chainprof (chain-step phases,
# %globaltimer) at 1024-4096; tiled d/s L/U 1024-4096 new / old x2; d/s potrf suites on new.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/ab; mkdir -p /tmp/ab
$NV -DGCHOL_AB_FLAG_LOAD -c kernels/potrf_tiled.cu -o /tmp/ab/old.o &
$NV docs/results/s12/src/p9.cu -o /tmp/ab/p9_new &
$NV -DGCHOL_AB_FLAG_LOAD docs/results/s12/src/p9.cu -o /tmp/ab/p9_old &
$NV -DSTAMP_T=0 docs/results/s12/src/p10.cu -o /tmp/ab/p10_0 &
$NV -DSTAMP_T=64 docs/results/s12/src/p10.cu -o /tmp/ab/p10_64 &
$NV -DGCHOL_TILED_PROFILE=20000 docs/results/s12/src/chainprof.cu -o /tmp/ab/chainprof &
wait
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/old.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep "m=128"
/tmp/ab/p10_0 > $R/p10_t0.log; /tmp/ab/p10_64 > $R/p10_t64.log; cat $R/p10_t0.log
/tmp/ab/chainprof > $R/chainprof.log 2>&1; grep -E "avg|split|^[ds][LU] n= *(1024|2048|4096)" $R/chainprof.log | head -40
echo "t=$((SECONDS-S))"
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
rm -f $R/build.log
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
