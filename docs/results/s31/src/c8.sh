#!/bin/bash
# session 31, call 8: the split panel with the rows below solved by a product
# (GCHOL_SPLIT_PANEL=2, src/potrf_driver.c potrf_left_split_inv, off in the library): the panel
# stream factors [A11; I] (tiled kernel, panel mode) into L11 and L11^{-T}; the main stream runs
# cuBLAS trmm with L11^{-T} in place (c7: ~45 TFLOP/s at m x 1024). (a) testing_dpotrf
# --suite --quick with it on; (b) d L 8192 / 12288 / 16384 / 24576 / 32768: base, inv, inv + grid
# 16, inv + grid 32, two rounds, alternating; (c) the timeline at 16384 of the faster capped form.
source docs/results/call_common.sh c8 lib benchmarks/bench_potrf
bash docs/results/s31/src/split_build.sh > $R/split_build.log 2>&1 || { tail $R/split_build.log; exit 1; }
echo "split build t=$((SECONDS-S))"
run testing_inv --limit 150 env GCHOL_SPLIT_PANEL=2 /tmp/ab/testing_dpotrf_split --suite --quick
grep FAILED $R/testing_inv.log | head -5
envof() { case $1 in base) echo "GCHOL_SPLIT_PANEL=0";; inv) echo "GCHOL_SPLIT_PANEL=2";; g*) echo "GCHOL_SPLIT_PANEL=2 GCHOL_PANEL_GRID=${1#g}";; esac; }
for r in 1 2; do
  for c in base inv g16 g32; do
    run b_${c}_$r --limit 480 env $(envof $c) /tmp/ab/bench_potrf_split -n 8192,12288,16384,24576,32768 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
for c in inv g16; do
  run tl_$c --limit 560 env $(envof $c) /tmp/ab/timeline_potrf_split -n 16384 --prec d --uplo L --variant left --out $R/tl_$c
  grep -E "untraced|busy" $R/tl_$c.log | head -2
done
finish
