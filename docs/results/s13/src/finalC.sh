#!/bin/bash
# session 13, final call C (tree e966d87): make test; racecheck of the
# tiled kernel with two blocks per SM (GCHOL_TILED_ONE_BLOCK_UP_TO=256 build), d L and s U 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalC; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
mkdir -p /tmp/two; $NV -DGCHOL_TILED_ONE_BLOCK_UP_TO=256 -c kernels/potrf_tiled.cu -o /tmp/two/pt.o
for p in D S; do gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_$p testing/testing_potrf.c testing/testing_common.c /tmp/two/pt.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/two/t$p; done
echo "build t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
for c in "D L two_dL" "S U two_sU"; do set -- $c
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 /tmp/two/t$1 -n 1000 --uplo $2 --variant tiled --niter 1 > $R/racecheck_$3.log 2>&1
  echo "racecheck $3: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_$3.log) t=$((SECONDS-S))"; done
rm -f $R/build.log
tar czf $OUT/finalC.tgz -C $OUT finalC && rm -rf $R
