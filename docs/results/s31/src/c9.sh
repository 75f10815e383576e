#!/bin/bash
# session 31, call 9: nb 2048 paid from 24576 only once the updates ran on cublasLt's 128 x 128
# tiles (thirtieth session), and those start at ld 18432; below, nb 1024 / 512 was chosen (the
# twenty-third session) without them. Here the two together at 12288 / 14336 / 16384 (d L): the
# tree and an alternate potrf_driver_d.o with GCHOL_WIDE_TILE_LD=12288, each at nb 1024 / 2048 x
# recnb 256 / 512, two rounds, alternating.
source docs/results/call_common.sh c9 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cc $CF -DGCHOL_PREC_D -DGCHOL_WIDE_TILE_LD=12288 -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libwide.a; ar r /tmp/ab/libwide.a /tmp/ab/potrf_driver_d.o
cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_wide /tmp/ab/libwide.a $LK || exit 1
binof() { case $1 in base) echo ./benchmarks/bench_potrf;; *) echo /tmp/ab/bench_potrf_$1;; esac; }
for r in 1 2; do
  for c in base wide; do
    run b_${c}_$r --limit 500 $(binof $c) -n 12288,14336,16384 --prec d --uplo L --variant left \
        --lookahead on --nb 1024,2048 --recnb 256,512 --niter 5
    echo "$c r$r:"
    grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "  %s %s/%s %s (cus %s)\n", $2,$6,$7,$9,$12}' | paste -d' ' - - - -
  done
done
finish
