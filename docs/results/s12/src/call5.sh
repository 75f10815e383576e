#!/bin/bash
# session 12, call 5: call 4's racecheck reported hazards in the chain block (on the build with the deferred
# L(k, k-1) stores). Which commit brings them: racecheck of the tiled kernel (d L 1000, s U 1000) built
# with -lineinfo from the kernels of 63e39a5 (session 11), 832c4d0, c1e4ee9 and 8547f2c. src/race/<commit>/
# held those commits' kernels/{potrf_tiled.cu,tile_common.cuh,tile_factor.cuh,gchol_kernels.h}; the copies
# were removed after the call; make them again with, for each commit c:
#   mkdir -p docs/results/s12/src/race/$c && for f in potrf_tiled.cu tile_common.cuh tile_factor.cuh gchol_kernels.h; do
#     git show $c:kernels/$f > docs/results/s12/src/race/$c/$f; done
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -lineinfo"
mkdir -p /tmp/race
for c in 63e39a5 832c4d0 c1e4ee9 8547f2c; do $NV -Idocs/results/s12/src/race/$c -c docs/results/s12/src/race/$c/potrf_tiled.cu -o /tmp/race/$c.o & done; wait
for c in 63e39a5 832c4d0 c1e4ee9 8547f2c; do for p in D S; do
  gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_$p testing/testing_potrf.c testing/testing_common.c /tmp/race/$c.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/race/t${p}_$c; done; done
echo "build t=$((SECONDS-S))"
for c in 63e39a5 832c4d0 c1e4ee9 8547f2c; do
  timeout 100 compute-sanitizer --tool racecheck /tmp/race/tD_$c -n 1000 --uplo L --variant tiled --niter 1 > $R/race_dL_$c.log 2>&1
  timeout 100 compute-sanitizer --tool racecheck /tmp/race/tS_$c -n 1000 --uplo U --variant tiled --niter 1 > $R/race_sU_$c.log 2>&1
  echo "$c dL: $(grep -E 'RACECHECK SUMMARY' $R/race_dL_$c.log)  sU: $(grep -E 'RACECHECK SUMMARY' $R/race_sU_$c.log)  t=$((SECONDS-S))"
done
for c in 8547f2c 63e39a5; do echo "== $c"; grep -E -A4 "^========= Error" $R/race_dL_$c.log | grep -E "Error|\.cu|\.cuh" | head -24; done
rm -f $R/build.log
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
