#!/bin/bash
# session 12, call 4: (1) the chain block's L(k, k-1) stored by warps 4-7 during the panel's first 8-column
# factorization (they have no rows there) and published by warp 7 after a named barrier, instead of on the
# critical path; (2) U(k) stored to the workspace as its nonzeros only, read back with zeros below.
# new = both; old = neither (-DGCHOL_AB_OLD_XSTORE -DGCHOL_AB_FULL_U); xonly = (1) (-DGCHOL_AB_FULL_U).
# tiled d/s L/U 1024-4096 x2, chainprof, auto d/s L 8192-16384 new / old x2, d/s suites, racecheck at 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/ab; mkdir -p /tmp/ab
$NV -DGCHOL_AB_OLD_XSTORE -DGCHOL_AB_FULL_U -c kernels/potrf_tiled.cu -o /tmp/ab/old.o &
$NV -DGCHOL_AB_FULL_U -c kernels/potrf_tiled.cu -o /tmp/ab/xonly.o &
$NV -DGCHOL_TILED_PROFILE=20000 docs/results/s12/src/chainprof.cu -o /tmp/ab/chainprof &
wait
for v in old xonly; do gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/$v.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v; done
echo "build t=$((SECONDS-S))"
/tmp/ab/chainprof > $R/chainprof.log 2>&1; grep -E "avg|split|^[ds][LU] n= *(1024|2048|4096)" $R/chainprof.log | head -40
for r in 1 2; do for v in new old xonly; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,12288,16384 --prec ds --uplo L --niter 5 --csv $R/auto_${v}_$r.csv > $R/auto_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
timeout 150 compute-sanitizer --tool racecheck ./testing/testing_dpotrf -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_d1000L.log 2>&1; echo "racecheck d L 1000: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_d1000L.log) t=$((SECONDS-S))"
timeout 150 compute-sanitizer --tool racecheck ./testing/testing_spotrf -n 1000 --uplo U --variant tiled --niter 1 > $R/racecheck_s1000U.log 2>&1; echo "racecheck s U 1000: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_s1000U.log) t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
