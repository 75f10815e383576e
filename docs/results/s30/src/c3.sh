#!/bin/bash
# session 30, call 3: where the wide tiles on every driver gemm start to pay. Call 2 (double lower,
# two rounds) timed them (GCHOL_WIDE_TILE_LD=0, _K=0) faster than the tree at 24576 (97.0 / 97.5
# against 99.6 / 102.1 ms) and 32768 (228.3 / 227.9 against 234.2 / 235.2); call 1 slower at
# 8192-12288 (2-3%) and even at 16384. Here 20480, 24576, 32768, 40960 (at 40960 the tree already
# takes them for k >= 8192), median of 5, two rounds, alternating.
source docs/results/call_common.sh c3 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=0 -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libwide.a; ar r /tmp/ab/libwide.a /tmp/ab/potrf_driver_d.o
cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_wide /tmp/ab/libwide.a $LK || exit 1
binof() { case $1 in base) echo ./benchmarks/bench_potrf;; *) echo /tmp/ab/bench_potrf_$1;; esac; }
for r in 1 2; do
  for c in base wide; do
    run b_${c}_$r --limit 580 $(binof $c) -n 20480,24576,32768,40960 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
finish
