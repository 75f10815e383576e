#!/bin/bash
# session 14, call 10 (for the next session, issue 4): ncu of gchol's double A·D²·Aᵀ kernel at 8192 x 32768
# against cuBLAS dgemm at n = 8192 (the ceiling's first launch): speed of light, warp states, pipes, scheduler.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c10; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
SEC="--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section SchedulerStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
timeout 200 ncu --kernel-name regex:syrk_diag_kernel --launch-count 1 $SEC ./benchmarks/bench_syrk_diag --sizes 8192:32768 --prec d --runs 1 > $R/ncu_syrk_diag_d.log 2>&1; echo "ncu syrk rc=$? t=$((SECONDS-S))"
timeout 200 ncu --kernel-name regex:gemm --launch-count 1 $SEC ./benchmarks/bench_potrf -n 1024 --prec d --niter 1 --gemm-n 8192 > $R/ncu_dgemm.log 2>&1; echo "ncu dgemm rc=$? t=$((SECONDS-S))"
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|Registers Per|Shared Memory Config|Block Size|Achieved Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall|Executed Ipc|SM Busy|DRAM Through|L1/TEX Hit|L2 Hit" $f | head -40; done
rm -f $R/build.log; tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
