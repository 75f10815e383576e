#!/bin/bash
# session 31, call 6: an experiment on double's left-looking range (12288-16384 miss 1.3x because
# the tiled panels, ~22 TFLOP/s, share the GPU with the bulk gemm). Split panel
# (src/potrf_driver.c, GCHOL_SPLIT_PANEL_EXPERIMENT, off in the library): the panel stream factors
# only the diagonal block (its last term by syrk, then the tiled kernel on the block alone), and
# the main stream runs the bulk, the last term of the rows below and their solve (op_trsm: gemms
# at cuBLAS's rate). GCHOL_PANEL_GRID=R caps the tiled kernel's grid (so that the diagonal chain
# takes few SMs beside the gemm). Built by split_build.sh into /tmp/ab; env selects the form.
# (a) testing_dpotrf --quick with the split on (correctness, failures included); (b) d L
# 8192 / 12288 / 16384 / 24576: base, split, split + grid 16, split + grid 32, two rounds,
# alternating; (c) timelines at 16384, base and split + grid 16.
source docs/results/call_common.sh c6 lib benchmarks/bench_potrf
bash docs/results/s31/src/split_build.sh > $R/split_build.log 2>&1 || { tail $R/split_build.log; exit 1; }
echo "split build t=$((SECONDS-S))"
run testing_split --limit 200 env GCHOL_SPLIT_PANEL=1 /tmp/ab/testing_dpotrf_split --quick
grep -c FAILED $R/testing_split.log; grep FAILED $R/testing_split.log | head -5
envof() { case $1 in base) echo "GCHOL_SPLIT_PANEL=0";; split) echo "GCHOL_SPLIT_PANEL=1";; g*) echo "GCHOL_SPLIT_PANEL=1 GCHOL_PANEL_GRID=${1#g}";; esac; }
for r in 1 2; do
  for c in base split g16 g32; do
    run b_${c}_$r --limit 480 env $(envof $c) /tmp/ab/bench_potrf_split -n 8192,12288,16384,24576 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *d +[0-9]+ L ' $R/b_${c}_$r.log | awk '{printf "%s %s/%s=%s  ", $2,$9,$12,$15}')"
  done
done
for c in base g16; do
  run tl_$c --limit 560 env $(envof $c) /tmp/ab/timeline_potrf_split -n 16384 --prec d --uplo L --variant left --out $R/tl_$c
  grep -E "untraced|busy" $R/tl_$c.log | head -4
done
finish
