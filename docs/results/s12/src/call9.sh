#!/bin/bash
# session 12, call 9: potf2 on the [W; I] panel skips the identity rows that are still zero left of the
# inner block (row n + i is zero left of column i): (a) updates and (b) solves rows up to n + jb + 8 only.
# new against -DGCHOL_AB_FULL_I (all rows, as before); p9; tiled d/s L/U 1024-4096 x2; auto d/s L 8192;
# d/s potrf suites; racecheck d L / s U 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/ab; mkdir -p /tmp/ab
$NV -DGCHOL_AB_FULL_I -c kernels/potrf_tiled.cu -o /tmp/ab/old.o & $NV docs/results/s12/src/p9.cu -o /tmp/ab/p9_new & $NV -DGCHOL_AB_FULL_I docs/results/s12/src/p9.cu -o /tmp/ab/p9_old & wait
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/old.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m=128"
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_old
  $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_old
  $b -n 8192 --prec ds --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
for c in "./testing/testing_dpotrf L dL" "./testing/testing_spotrf U sU"; do set -- $c
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 $1 -n 1000 --uplo $2 --variant tiled --niter 1 > $R/racecheck_$3.log 2>&1
  echo "racecheck $3: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_$3.log) t=$((SECONDS-S))"; done
rm -f $R/build.log
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
