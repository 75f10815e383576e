#!/bin/bash
# session 30, call 2: call 1 gave 24576 double lower 96.6 ms with every driver gemm on cublasLt's
# 128 x 128 tiles against 102.8 for the tree (one run each). The tree takes those tiles only from
# ld 36864 (src/prec.h, fifteenth session: summed apart they lost 0-7% at 16384-32768, but were
# never timed inside the factorization below 32768's ... and at 32768 both of its builds ran
# cuBLAS). Here, inside the factorization, double lower 24576 / 32768, median of 5, two rounds:
#   base  the tree
#   wide  GCHOL_WIDE_TILE_LD=0, _K=0     (every non-transposed driver gemm)
#   widek GCHOL_WIDE_TILE_LD=0, _K=8192  (the tree's k threshold, every ld)
source docs/results/call_common.sh c2 lib benchmarks/bench_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
for v in wide widek; do
  K=0; [ $v = widek ] && K=8192
  cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=$K -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
  cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/potrf_driver_d.o
  cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_$v /tmp/ab/lib$v.a $LK || exit 1
done
binof() { case $1 in base) echo ./benchmarks/bench_potrf;; *) echo /tmp/ab/bench_potrf_$1;; esac; }
for r in 1 2; do
  for c in base wide widek; do
    run b_${c}_$r --limit 560 $(binof $c) -n 24576,32768 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
finish
