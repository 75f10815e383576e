#!/bin/bash
# session 13, call 2: potf2's pivot step in double. new = short step (rsqrt.approx.ftz.f64 + one
# correction; next pivot from the unscaled entry; the plain step again for the block when a pivot is
# outside [2^-1000, 2^1000)); nonext = -DGCHOL_AB_NONEXT (short 1/sqrt only); old = HEAD's tile_factor.cuh.
# p9; tiled d L/U 1024-4096 x2; auto d L 8192/16384; d/s potrf suites (with the new tiny/huge cases).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s13/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/nonext /tmp/ab/oldsrc
cp kernels/potrf_tiled.cu kernels/potf2.cu /tmp/ab/oldsrc/; cp $D/tile_factor_head.cuh /tmp/ab/oldsrc/tile_factor.cuh  # tile_factor_head.cuh: git show 157eeca:kernels/tile_factor.cuh (removed after the call)
for k in potrf_tiled potf2; do
  $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & $NV -DGCHOL_AB_NONEXT -c kernels/$k.cu -o /tmp/ab/nonext/$k.cu.o & done
$NV $P/p9.cu -o /tmp/ab/p9_new & $NV -I/tmp/ab/oldsrc $P/p9.cu -o /tmp/ab/p9_old & $NV -DGCHOL_AB_NONEXT $P/p9.cu -o /tmp/ab/p9_nonext & wait
for v in old nonext; do cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/$v/*.o
  gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$v.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v; done
echo "build t=$((SECONDS-S))"
for v in new old nonext; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for v in new old nonext; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,3072,4096 --prec d --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,16384 --prec d --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; grep -E "tiny|huge" $R/suite_${p}potrf.log | awk '{print $1,$3,$6,$7,$9,$12,$13,$14}' | head -12; done
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_dL.log 2>&1
echo "racecheck dL: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_dL.log) t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
