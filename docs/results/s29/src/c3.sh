#!/bin/bash
# session 29, call 3: what shares an SM with a panel. ncu's launch figures of the bulk gemm and of
# the tiled panel kernel (shared memory per block, occupancy limits); then GCHOL_PANEL_SMEM=232448
# (a panel's blocks alone on their SMs: no gemm block beside the chain block) with and without
# GCHOL_PANEL_FIRST=1. Lower, auto, median of 5; two rounds, alternating.
source docs/results/call_common.sh c3 lib benchmarks/bench_potrf benchmarks/timeline_potrf
run ncu --limit 200 ncu --metrics launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__cluster_dim_x -k regex:"gemm|tiled" -c 8 ./benchmarks/timeline_potrf -n 8192 --prec d --uplo L --variant left --out $R/ncu_tl
grep -E "gemm|tiled|launch__" $R/ncu.log | sed 's/  */ /g' | head -70
cfgs=("base" "smem" "first smem" "first")
envof() { local e=(); for w in $1; do case $w in first) e+=(GCHOL_PANEL_FIRST=1);; smem) e+=(GCHOL_PANEL_SMEM=232448);; esac; done; echo "${e[@]}"; }
for r in 1 2; do
  for c in "${cfgs[@]}"; do
    tag=$(echo $c | tr ' ' _)_$r
    run b_$tag --limit 400 env $(envof "$c") ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --niter 5
    echo "$c r$r: $(grep -E '^ *[ds] +[0-9]+ L ' $R/b_$tag.log | awk '{printf "%s%s %s/%s=%s  ", $1,$2,$9,$12,$15}')"
  done
done
run tl_smem --limit 450 env GCHOL_PANEL_SMEM=232448 ./benchmarks/timeline_potrf -n 16384 --prec d --uplo L --variant left --out $R/tl_smem
grep -E "untraced|busy|overlap" $R/tl_smem.log | head -3
finish
