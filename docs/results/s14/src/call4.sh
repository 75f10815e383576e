#!/bin/bash
# session 14, call 4: potf2_panel's (a) below a unit panel on min(m - jb, n) rows instead of n + 8 (the
# newest 8 rows of I have a zero update): 4 tiles of 16 rows, one per scheduler, instead of 5
# (GCHOL_AB_ROWS_A=1 new, 0 HEAD; temporary). p9 x2; tiled d/s L/U 1024-4096 x2; auto d/s L 8192, 16384;
# d/s potrf quick suites; racecheck d/s L 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/0
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for m in 0 1; do $NV -DGCHOL_AB_ROWS_A=$m $P/p9.cu -o /tmp/ab/p9_$m & done
for k in potrf_tiled potf2; do $NV -DGCHOL_AB_ROWS_A=0 -c kernels/$k.cu -o /tmp/ab/0/$k.cu.o & done; wait
cp lib/libgchol.a /tmp/ab/lib0.a; ar r /tmp/ab/lib0.a /tmp/ab/0/*.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib0.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_0
cp benchmarks/bench_potrf /tmp/ab/bench_1
echo "build t=$((SECONDS-S))"
for r in 1 2; do for m in 1 0; do echo "== p9 rows_a $m run $r"; /tmp/ab/p9_$m; done; done | tee $R/p9.log | grep -E "==|m=128"
for r in 1 2; do for m in 1 0; do
  /tmp/ab/bench_$m -n 1024,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 7 > $R/tiled_${m}_$r.log 2>&1
  echo "$m.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${m}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for m in 1 0; do /tmp/ab/bench_$m -n 8192,16384 --prec ds --uplo L --niter 5 > $R/auto_${m}.log 2>&1; echo "$m $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${m}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite --quick > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
for p in d s; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_${p}L1000.log 2>&1
  echo "racecheck ${p}L1000: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_${p}L1000.log) t=$((SECONDS-S))"; done
rm -f $R/build.log
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
