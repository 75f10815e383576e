#!/bin/bash
# session 11, call 10: the two-blocks-per-SM tiled kernel (the synchronous worker path with the new poll, the chain block without prefetch) under the sanitizers at small n: testers built with GCHOL_TILED_ONE_BLOCK_UP_TO=256 (default 4608; default PTX unchanged); racecheck tiled d/s L/U n = 1000, the d/s quick suites of that build, memcheck of one
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
cp kernels/potrf_tiled.cu kernels/_v_tmp.cu
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -DGCHOL_TILED_ONE_BLOCK_UP_TO=256 -c kernels/_v_tmp.cu -o /tmp/pt_two.o || exit 1
rm kernels/_v_tmp.cu
for p in D S; do gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_$p testing/testing_potrf.c testing/testing_common.c /tmp/pt_two.o $LIBS -o /tmp/testing_${p}potrf_two || exit 1; done
echo "build t=$((SECONDS-S))"
for p in D S; do for u in L U; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 /tmp/testing_${p}potrf_two -n 1000 --uplo $u --variant tiled --check --niter 1 > $R/racecheck_${p}_$u.log 2>&1; echo "racecheck two-block $p $u: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_${p}_$u.log) $(grep -cE ' ok$' $R/racecheck_${p}_$u.log) ok t=$((SECONDS-S))"
done; done
for p in D S; do /tmp/testing_${p}potrf_two --suite --quick > $R/suite_quick_${p}_two.log 2>&1; echo "quick suite two-block $p: $(grep SUMMARY $R/suite_quick_${p}_two.log) t=$((SECONDS-S))"; grep FAIL $R/suite_quick_${p}_two.log | head -3; done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/testing_Spotrf_two --suite --quick > $R/memcheck_S_two.log 2>&1; echo "memcheck two-block S quick: rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_S_two.log) t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
