#!/bin/bash
# session 30, call 16: from 18432 every double update takes cublasLt's first 128 x 128 algorithm
# (gemm_lt.c). Do other tiles of its list do better at 24576 / 32768? lt_tile.patch (call 5):
# GCHOL_LT_TILE = 20 (128 x 128, the tree's choice), 24 (256 x 128), 23 (128 x 256), -1 (the
# list's first); cuBLAS where the list has none. Lower, auto, median of 3, two rounds.
source docs/results/call_common.sh c16 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cp src/gemm_lt.c /tmp/ab/gemm_lt.c && patch -s /tmp/ab/gemm_lt.c docs/results/s30/src/lt_tile.patch || exit 1
cc $CF -c /tmp/ab/gemm_lt.c -o /tmp/ab/gemm_lt_d.o || exit 1
cp lib/libgchol.a /tmp/ab/liblt.a; ar r /tmp/ab/liblt.a /tmp/ab/gemm_lt_d.o
cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_lt /tmp/ab/liblt.a $LK || exit 1
for r in 1 2; do
  for c in 20 24 23 -1; do
    run b_${c}_$r --limit $((r * 280)) env GCHOL_LT_TILE=$c /tmp/ab/bench_potrf_lt -n 24576,32768 --prec d --uplo L --niter 3
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
grep -h "^lt " $R/b_-1_1.log | sort -u | head -24
finish
