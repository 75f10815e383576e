#!/bin/bash
# session 31, call 4: (a) call 2's sweep had double upper 2048 at 0.460 ms against lower 0.379
# (+21%; 0.390-0.396 in the three sweeps before, same kernel): double 2048 both triangles again,
# median of 9, three processes. (b) Double lower's gemms in row pieces (GEMM_LOWER_CHUNK, single
# only since the fifth session, which found no gain in double before the tiled panels): pieces
# end in a partial wave each, where the panel stream's kernel (highest priority) can take SMs
# before the bulk gemm's last wave. Alternate builds of potrf_driver.c with prec.h's double chunk
# at 4096 / 8192 rows against the tree, 12288 / 16384 / 24576, two rounds, alternating.
source docs/results/call_common.sh c4 lib benchmarks/bench_potrf
for r in 1 2 3; do
    run u2048_$r --limit 120 ./benchmarks/bench_potrf -n 2048 --prec d --uplo LU --niter 9
    echo "2048 r$r: $(grep -E '^ *d +2048 [LU] ' $R/u2048_$r.log | awk '{printf "%s %s/%s=%s  ", $3,$9,$12,$15}')"
done
mkdir -p /tmp/ab/s
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cp src/potrf_driver.c /tmp/ab/s/
for c in 4096 8192; do
  # the first GEMM_LOWER_CHUNK in prec.h is double's
  sed "0,/#define GEMM_LOWER_CHUNK 0/s//#define GEMM_LOWER_CHUNK $c/" src/prec.h > /tmp/ab/s/prec.h
  grep -c "GEMM_LOWER_CHUNK $c" /tmp/ab/s/prec.h
  cc $CF -DGCHOL_PREC_D -c /tmp/ab/s/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
  cp lib/libgchol.a /tmp/ab/lib$c.a; ar r /tmp/ab/lib$c.a /tmp/ab/potrf_driver_d.o
  cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_$c /tmp/ab/lib$c.a $LK || exit 1
done
binof() { case $1 in base) echo ./benchmarks/bench_potrf;; *) echo /tmp/ab/bench_potrf_$1;; esac; }
for r in 1 2; do
  for c in base 4096 8192; do
    run b_${c}_$r --limit 560 $(binof $c) -n 12288,16384,24576 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
finish
