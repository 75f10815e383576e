#!/bin/bash
# session 13, call 1: potf2's pivot 1/sqrt in double. new = rsqrt.approx.ftz.f64 + one second-order
# correction (library rsqrt for x < 2^-1000, Inf, <= 0, NaN); old = -DGCHOL_AB_RSQRT_LIB (library rsqrt);
# nobr = -DGCHOL_AB_RSQRT_NOBR (no special-case branch, Inf by select). rsq microbench; p9; tiled d L/U
# 1024-4096 x2; auto d L 8192/16384; dpotrf suite (new).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s13/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/nobr
$NV -DGCHOL_AB_RSQRT_LIB -c kernels/potrf_tiled.cu -o /tmp/ab/old/potrf_tiled.cu.o & $NV -DGCHOL_AB_RSQRT_LIB -c kernels/potf2.cu -o /tmp/ab/old/potf2.cu.o &
$NV -DGCHOL_AB_RSQRT_NOBR -c kernels/potrf_tiled.cu -o /tmp/ab/nobr/potrf_tiled.cu.o & $NV -DGCHOL_AB_RSQRT_NOBR -c kernels/potf2.cu -o /tmp/ab/nobr/potf2.cu.o &
$NV $P/p9.cu -o /tmp/ab/p9_new & $NV -DGCHOL_AB_RSQRT_LIB $P/p9.cu -o /tmp/ab/p9_old & $NV -DGCHOL_AB_RSQRT_NOBR $P/p9.cu -o /tmp/ab/p9_nobr &
$NV $D/rsq.cu -o /tmp/ab/rsq & wait
for v in old nobr; do cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/$v/*.o
  gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$v.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v; done
echo "build t=$((SECONDS-S))"
/tmp/ab/rsq | tee $R/rsq.log
for v in new old nobr; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for v in new old nobr; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,3072,4096 --prec d --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,16384 --prec d --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
./testing/testing_dpotrf --suite > $R/suite_dpotrf.log 2>&1; echo "suite dpotrf: $(grep SUMMARY $R/suite_dpotrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_dpotrf.log | head -5
rm -f $R/build.log
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
