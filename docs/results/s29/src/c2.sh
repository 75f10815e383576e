#!/bin/bash
# session 29, call 2: the panel starves beside the bulk gemm (c1: a tiled panel takes 3-5x its
# alone time, and ends when the gemm drains). Experiment knobs: GCHOL_PANEL_FIRST=1 (the main
# stream's bulk of column k+1 waits for the panel stream's last term of column k, so the panel
# kernel is queued, at high priority, before the bulk), GCHOL_PANEL_SMS=R (a panel's grid capped
# at R SMs, leaving the rest to the gemm). Lower, auto, median of 5; two rounds, alternating.
source docs/results/call_common.sh c2 lib benchmarks/bench_potrf benchmarks/timeline_potrf
cfgs=("base" "sms32" "first" "first sms16" "first sms32" "first sms48" "first sms64")
envof() { local e=(); for w in $1; do case $w in first) e+=(GCHOL_PANEL_FIRST=1);; sms*) e+=(GCHOL_PANEL_SMS=${w#sms});; esac; done; echo "${e[@]}"; }
for r in 1 2; do
  for c in "${cfgs[@]}"; do
    tag=$(echo $c | tr ' ' _)_$r
    run b_$tag --limit 400 env $(envof "$c") ./benchmarks/bench_potrf -n 12288,16384 --prec ds --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *[ds] +[0-9]+ L ' $R/b_$tag.log | awk '{printf "%s%s %s/%s=%s  ", $1,$2,$9,$12,$15}')"
  done
done
for c in "first sms32" "first sms48"; do
  tag=$(echo $c | tr ' ' _)
  run tl_$tag --limit 450 env $(envof "$c") ./benchmarks/timeline_potrf -n 16384 --prec d --uplo L --variant left --out $R/tl_$tag
  grep -E "untraced|busy|overlap" $R/tl_$tag.log | head -3
done
for c in "base" "first sms32" "first sms48"; do
  tag=$(echo $c | tr ' ' _)
  run b32_$tag --limit 540 env $(envof "$c") ./benchmarks/bench_potrf -n 32768 --prec d --uplo L --niter 3
  echo "$c 32768: $(grep -E '^ *[ds] +[0-9]+ L ' $R/b32_$tag.log | awk '{printf "%s%s %s/%s=%s  ", $1,$2,$9,$12,$15}')"
done
finish
