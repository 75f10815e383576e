#!/bin/bash
# session 30, call 4: the threshold for the wide tiles on every driver gemm. Call 3 (double lower,
# two rounds): faster at 20480 (55.9 / 56.4 against 58.4 / 59.1 ms), 24576, 32768 and 40960 (1-5%);
# call 1: slower at 8192-12288 (2-3%), at 16384 within ~1%.
# Then bench_pftrf d 32768 (every RFP variant) on both builds: RFP's block views have ld n / 2 or
# n + 1 (odd: no wide tiles), so where the threshold lies decides whether pftrf follows.
source docs/results/call_common.sh c4 lib benchmarks/bench_potrf benchmarks/bench_pftrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=0 -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libwide.a; ar r /tmp/ab/libwide.a /tmp/ab/potrf_driver_d.o
for b in bench_potrf bench_pftrf; do
  cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/$b.c benchmarks/bench_common.c -o /tmp/ab/${b}_wide /tmp/ab/libwide.a $LK || exit 1
done
binof() { case $1 in base) echo ./benchmarks/${2:-bench_potrf};; *) echo /tmp/ab/${2:-bench_potrf}_$1;; esac; }
for r in 1 2; do
  for c in base wide; do
    run b_${c}_$r --limit 280 $(binof $c) -n 14336,16384,17408,18432,19456,20480 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
for c in base wide; do
  run pf_$c --limit 540 $(binof $c bench_pftrf) --sizes 32768 --prec d --all-rfp --form auto
  grep -vE '^#|^$' $R/pf_$c.log | cut -c1-160
done
finish
