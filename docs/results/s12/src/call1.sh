#!/bin/bash
# session 12, call 1: potf2's inner update on the tensor cores (double: mma m16n8k4 instead of m8n8k4;
# single: 3xTF32 m16n8k8 instead of FFMA) against the same tree built with -DGCHOL_AB_OLD_INNER:
# potf2_panel cycles (p9), tiled d/s L/U 1024-4096, auto d/s L 8192/12288; d/s potrf suites; memcheck of
# the one-block tiled kernel at n = 5000 (the bound moved to 5376 in session 11)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
$NV -DGCHOL_AB_OLD_INNER -c kernels/potrf_tiled.cu -o /tmp/pt_old.o
mkdir -p /tmp/ab
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pt_old.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
for v in new old; do f=""; [ $v = old ] && f=-DGCHOL_AB_OLD_INNER; $NV $f docs/results/s12/src/p9.cu -o /tmp/ab/p9_$v; done
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_old
  $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_old
  $b -n 8192,12288 --prec ds --uplo L --niter 5 --csv $R/auto_${v}.csv > $R/auto_${v}.log 2>&1
  echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
timeout 150 compute-sanitizer --tool memcheck ./testing/testing_dpotrf -n 5000 --uplo L --variant tiled --niter 1 > $R/memcheck_d5000.log 2>&1; echo "memcheck d L 5000 tiled: $(grep -E 'ERROR SUMMARY' $R/memcheck_d5000.log) t=$((SECONDS-S))"
timeout 100 compute-sanitizer --tool memcheck ./testing/testing_spotrf -n 5300 --uplo U --variant tiled --niter 1 > $R/memcheck_s5300.log 2>&1; echo "memcheck s U 5300 tiled: $(grep -E 'ERROR SUMMARY' $R/memcheck_s5300.log) t=$((SECONDS-S))"
tail -3 $R/memcheck_d5000.log
rm -f $R/build.log
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
