#!/bin/bash
# session 11, call 2: ncu of the tiled kernel: double lower n = 4096 (whole matrix), single lower 4096, and a double 8192 x 1024 panel (left-looking, alone under ncu); what bounds the workers (L2, tensor pipe, stalls)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis"
M="--metrics lts__t_bytes.sum.per_second,lts__t_sectors_srcunit_tex_op_read.sum,sm__inst_executed_pipe_tensor_op_dmma.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum"
timeout 150 ncu -k regex:potrf_tiled -s 1 -c 1 $SEC $M ./benchmarks/bench_potrf -n 4096 --prec d --variant tiled --niter 1 > $R/ncu_d4096.log 2>&1; echo "d4096 rc=$? t=$((SECONDS-S))"
timeout 150 ncu -k regex:potrf_tiled -s 1 -c 1 $SEC $M ./benchmarks/bench_potrf -n 4096 --prec s --variant tiled --niter 1 > $R/ncu_s4096.log 2>&1; echo "s4096 rc=$? t=$((SECONDS-S))"
timeout 150 ncu -k regex:potrf_tiled -s 9 -c 1 $SEC $M ./benchmarks/bench_potrf -n 8192 --prec d --niter 1 > $R/ncu_d8192panel.log 2>&1; echo "d8192 panel rc=$? t=$((SECONDS-S))"
for f in $R/ncu_*.log; do echo "== $f"; grep -E "Duration|Memory Throughput|L2 Cache Throughput|DRAM Throughput|Compute \(SM\) Throughput|lts__t_bytes|dmma|Stall|Registers Per|Achieved Occupancy|Issue Slots Busy|One or More Eligible|L2 Hit" $f | head -30; done
rm -f $R/build.log
