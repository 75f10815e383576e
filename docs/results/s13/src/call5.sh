#!/bin/bash
# session 13, call 5: the short pivot step as committed (new) against HEAD's tile_factor.cuh (old):
# p9; tiled d/s L/U 1024-4096 x2; auto d L 8192/16384; d/s potrf suites; the quick suite on a build
# without the underflow check (-DGCHOL_AB_NOUNDER: its sq_under cases must fail); racecheck d L 1000 /
# d U 3000 tiled; memcheck of the dpotrf quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
D=docs/results/s13/src; P=docs/results/s12/src
rm -rf /tmp/ab; mkdir -p /tmp/ab/old /tmp/ab/nounder /tmp/ab/oldsrc
cp kernels/potrf_tiled.cu kernels/potf2.cu $P/p9.cu /tmp/ab/oldsrc/; cp $D/tile_factor_head.cuh /tmp/ab/oldsrc/tile_factor.cuh  # tile_factor_head.cuh: git show 157eeca:kernels/tile_factor.cuh (removed after the call)
for k in potrf_tiled potf2; do
  $NV -c /tmp/ab/oldsrc/$k.cu -o /tmp/ab/old/$k.cu.o & $NV -DGCHOL_AB_NOUNDER -c kernels/$k.cu -o /tmp/ab/nounder/$k.cu.o & done
$NV $P/p9.cu -o /tmp/ab/p9_new & $NV /tmp/ab/oldsrc/p9.cu -o /tmp/ab/p9_old & wait
for v in old nounder; do cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/$v/*.o; done
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/libold.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_old
gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_D testing/testing_potrf.c testing/testing_common.c /tmp/ab/libnounder.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/test_nounder
echo "build t=$((SECONDS-S))"
for v in new old; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m="
for r in 1 2; do for v in new old; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 1024,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for v in new old; do b=./benchmarks/bench_potrf; [ $v != new ] && b=/tmp/ab/bench_$v
  $b -n 8192,16384 --prec d --uplo L --niter 5 > $R/auto_${v}.log 2>&1; echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
/tmp/ab/test_nounder --suite --quick > $R/quick_nounder.log 2>&1; echo "quick dpotrf without the underflow check: $(grep SUMMARY $R/quick_nounder.log)"; grep FAIL $R/quick_nounder.log | awk '{print $1,$3,$6,$9,$10,$11,$NF}' | head -6
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
grep -E "tiny|huge|subnormal|sq_under" $R/suite_dpotrf.log | awk '{print $1,$3,$6,$7,$9,$10,$11,$12,$13,$14}' | head -40
for c in "L 1000 dL1000" "U 3000 dU3000"; do set -- $c
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dpotrf -n $2 --uplo $1 --variant tiled --niter 1 > $R/racecheck_$3.log 2>&1
  echo "racecheck $3: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_$3.log) t=$((SECONDS-S))"; done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick > $R/memcheck_dpotrf.log 2>&1
echo "memcheck dpotrf quick: rc=$? $(grep SUMMARY $R/memcheck_dpotrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dpotrf.log) t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
