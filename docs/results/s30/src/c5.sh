#!/bin/bash
# session 30, call 5: which cublasLt tile for the driver's gemms at 8192-16384, where the 128 x 128
# tiles did not pay (calls 1, 4). Experiment build: every lower driver gemm through gemm_lt
# (GCHOL_WIDE_TILE_LD=0, _K=0) with lt_tile.patch, which takes the first algorithm of cublasLt's
# heuristic list whose tile id is GCHOL_LT_TILE (cublasLt.h; -1: the list's first, whatever its tile;
# cublasDgemm where the list has none) and lists the offered tiles of the first three shapes.
# 20 = 128x128, 18 = 128x64, 17 = 64x128, 15 = 64x64, 24 = 256x128, 23 = 128x256.
# Double lower, auto, median of 5, two rounds.
source docs/results/call_common.sh c5 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cp src/gemm_lt.c /tmp/ab/gemm_lt.c && patch -s /tmp/ab/gemm_lt.c docs/results/s30/src/lt_tile.patch || exit 1
cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=0 -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
cc $CF -c /tmp/ab/gemm_lt.c -o /tmp/ab/gemm_lt_d.o || exit 1
cp lib/libgchol.a /tmp/ab/liblt.a; ar r /tmp/ab/liblt.a /tmp/ab/potrf_driver_d.o /tmp/ab/gemm_lt_d.o
cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_lt /tmp/ab/liblt.a $LK || exit 1
for r in 1 2; do
  for c in base 20 18 17 15 24 23 -1; do
    if [ $c = base ]; then B="./benchmarks/bench_potrf"; else B="env GCHOL_LT_TILE=$c /tmp/ab/bench_potrf_lt"; fi
    run b_${c}_$r --limit 500 $B -n 8192,12288,16384 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
grep -h "^lt " $R/b_-1_1.log | sort -u | head -30
finish
