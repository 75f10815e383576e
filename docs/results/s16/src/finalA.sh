#!/bin/bash
# session 16, final call A (tree of this commit): make test; racecheck of the tiled kernel at two blocks per SM
# (d L 1000, s U 1000) and one block per SM (d U 1000); memcheck of the d/s potrf quick suites.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalA; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
mkdir -p /tmp/two; $NV -DGCHOL_TILED_ONE_BLOCK_UP_TO=256 -c kernels/potrf_tiled.cu -o /tmp/two/pt.o
for p in D S; do gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_$p testing/testing_potrf.c testing/testing_common.c /tmp/two/pt.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/two/t$p; done
echo "build t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
for c in "tD L two_dL" "tS U two_sU"; do set -- $c
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 /tmp/two/$1 -n 1000 --uplo $2 --variant tiled --niter 1 > $R/racecheck_$3.log 2>&1
  echo "racecheck $3: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_$3.log | sed 's/warnings/warn/') t=$((SECONDS-S))"; done
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000 --uplo U --variant tiled --niter 1 > $R/racecheck_one_dU.log 2>&1
echo "racecheck one_dU: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_one_dU.log | sed 's/warnings/warn/') t=$((SECONDS-S))"
for p in d s; do timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick > $R/memcheck_${p}potrf.log 2>&1
  echo "memcheck ${p}potrf quick: rc=$? $(grep SUMMARY $R/memcheck_${p}potrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_${p}potrf.log) t=$((SECONDS-S))"; done
rm -f $R/build.log; gzip -9 -n $R/*.log
tar czf $OUT/finalA.tgz -C $OUT finalA && rm -rf $R
