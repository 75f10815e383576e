#!/bin/bash
# session 30, call 10: upper, double, 18432 and 20480 (auto: 1024 / 512, 1024 / 256): the upper view's
# (T, N) updates on cublasLt's 128 x 128 tiles (GCHOL_WIDE_TILE_UPPER=1) against the tree, where call 9
# found them 3.5-4% faster from 24576. Auto, median of 5, two rounds, the builds alternating.
source docs/results/call_common.sh c10 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cc $CF -DGCHOL_WIDE_TILE_UPPER=1 -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libup.a; ar r /tmp/ab/libup.a /tmp/ab/potrf_driver_d.o
cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_up /tmp/ab/libup.a $LK || exit 1
pr() { grep -E '^ *d +[0-9]+ U ' $R/$1.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - ; }
for r in 1 2; do
  for b in tree up; do
    B=./benchmarks/bench_potrf; [ $b = up ] && B=/tmp/ab/bench_potrf_up
    run ${b}_$r --limit $((r * 120)) $B -n 18432,20480 --prec d --uplo U --niter 5
    echo "$b r$r:"; pr ${b}_$r
  done
done
finish
