#!/bin/bash
# session 24, call 2: why does the eighteenth session's standalone DMMA gemm (probe c8: the same
# 128 x 128 tile, 8 warps of 64 x 32, m16n8k4, 3 stages) run ~16% faster than syrk_diag's double
# kernel? Clock and power sampled (nvidia-smi, 50 ms) while each runs; ncu at the clocks the
# card picks (--clock-control none) of one launch of each at 4096 x 65536. build/dgemm_probe was
# built here: results/s18/src/dgemm_probe.cu with src/dgemm_probe_filters.patch (PROBE_CFG,
# PROBE_SHAPES), nvcc -O3 -std=c++17 -arch=sm_90 -o build/dgemm_probe dgemm_probe.cu -lcublas.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
export GCHOL_SYRK_DMMA_PIPE=0
smi() { nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $R/smi_$1.csv & SMI=$!; }
summ() { kill $SMI; sleep 0.2; awk -F', ' '{c+=$2; p+=$3; n++; if($2<mn||mn=="")mn=$2} END{printf "   %s: %d samples, mean SM clock %.0f MHz (min %s), mean power %.0f W\n", "'$1'", n, c/n, mn, p/n}' $R/smi_$1.csv; }
for r in 1 2; do
  smi probe$r; PROBE_CFG=c8 PROBE_SHAPES=1,2 ./build/dgemm_probe > $R/probe_$r.log 2>&1; echo "== probe c8 round $r rc=$? t=$((SECONDS-S))"; summ probe$r
  grep -E "^  (cuBLAS|c8) " $R/probe_$r.log
  smi syrk$r; ./benchmarks/bench_syrk_diag --prec d --sizes 4096:65536,16384:16384 --runs 5 > $R/syrk_$r.log 2>&1; echo "== syrk_diag round $r rc=$? t=$((SECONDS-S))"; summ syrk$r
  grep -vE '^$|^#' $R/syrk_$r.log | cut -c1-110
done
NCU="ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section MemoryWorkloadAnalysis --launch-count 1"
PROBE_CFG=c8 PROBE_SHAPES=1 timeout $((420-SECONDS)) $NCU -k regex:dgemm_nt_kernel --launch-skip 3 ./build/dgemm_probe > $R/ncu_probe.log 2>&1
echo "== ncu probe rc=$? t=$((SECONDS-S))"
timeout $((560-SECONDS)) $NCU -k regex:syrk_diag_kernel --launch-skip 3 ./benchmarks/bench_syrk_diag --prec d --sizes 4096:65536 --runs 3 > $R/ncu_syrk.log 2>&1
echo "== ncu syrk rc=$? t=$((SECONDS-S))"
for f in probe syrk; do echo "-- $f"; grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|Eligible Warps|Issued Warp|highest-utilized|Tensor \(DP\)|Stall|Warp Cycles Per Issued" $R/ncu_$f.log | head -16; done
rm -f $R/build.log; gzip -9 -n $R/*.log $R/*.csv; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
