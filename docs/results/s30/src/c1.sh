#!/bin/bash
# session 30, call 1: do the panels run earlier beside a bulk gemm of 128 x 128 tiles?
# The twenty-ninth session found a tiled panel's blocks (174 KB, 242 x 256 registers) fit only on
# a whole SM, and cuBLAS's 64 x 64 dgemm blocks (two per SM) refill each half-free SM: the panel
# runs in the gemm's last wave. With one gemm block per SM (cublasLt's 128 x 128 tiles,
# src/gemm_lt.c) every retiring block frees a whole SM, which the panel stream's (higher
# priority) pending blocks could take. Variants of src/potrf_driver.c (double):
#   wide:  every non-transposed driver gemm on the wide tiles (GCHOL_WIDE_TILE_LD=0, _K=0)
#   wideb: only the bulk updates (k >= 2048; the panel stream's last term, k = 1024, stays cuBLAS)
# each with and without the tiled kernel's clusters (GCHOL_TILED_HELPER=0: plain launch, so a
# panel block needs one free SM, not two in one GPC). Lower, auto, median of 5, two rounds.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf benchmarks/timeline_potrf
mkdir -p /tmp/ab
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
for v in wide wideb; do
  K=0; [ $v = wideb ] && K=2048
  cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=$K -c src/potrf_driver.c -o /tmp/ab/pd_$v.o || exit 1
  cp lib/libgchol.a /tmp/ab/lib$v.a; cp /tmp/ab/pd_$v.o /tmp/ab/potrf_driver_d.o; ar r /tmp/ab/lib$v.a /tmp/ab/potrf_driver_d.o
  for b in bench_potrf timeline_potrf; do
    cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/$b.c benchmarks/bench_common.c -o /tmp/ab/${b}_$v /tmp/ab/lib$v.a $LK || exit 1
  done
done
echo "variants built t=$((SECONDS-S))"
binof() { case $1 in base*) echo ./benchmarks/$2;; wideb*) echo /tmp/ab/$2_wideb;; wide*) echo /tmp/ab/$2_wide;; esac; }
envof() { case $1 in *_nh) echo GCHOL_TILED_HELPER=0;; *) echo GCHOL_X=1;; esac; }
cfgs=(base wide wideb base_nh wide_nh)
for r in 1 2; do
  for c in "${cfgs[@]}"; do
    run b_${c}_$r --limit 330 env $(envof $c) $(binof $c bench_potrf) -n 8192,12288,16384 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
for c in base wide; do
  run tl_$c --limit 400 $(binof $c timeline_potrf) -n 16384 --prec d --uplo L --variant left --out $R/tl_$c
  grep -E "untraced|busy|overlap" $R/tl_$c.log | head -3
done
for c in base wide; do
  run b24_$c --limit 480 $(binof $c bench_potrf) -n 24576 --prec d --uplo L --niter 3
  echo "$c 24576: $(grep -E '^ *d +[0-9]+ L ' $R/b24_$c.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
done
finish
