#!/bin/bash
# session 7, call 4: ncu of the syrk_diag kernel (current), two shapes
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c4
for sz in 4096:65536 16384:16384; do
  timeout 200 ncu -k regex:syrk_diag_kernel -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section InstructionStats \
    ./scratch/s7/bsd_w24 --prec d --runs 1 --sizes $sz > $OUT/c4/ncu_${sz/:/x}.log 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\)|Stall|Issued Warp|No Eligible|Active Warps|Registers|Memory Throughput|Executed Ipc|Warp Cycles Per Issued" $OUT/c4/ncu_${sz/:/x}.log | head -40
done
/usr/local/cuda/bin/cuobjdump -sass scratch/s7/bsd_w24 | awk '/Function : .*syrk_diag_kernelIdLb1ELb1/{f=1} f&&/Function : .*syrk_diag_kernelIdLb0ELb0/{f=0} f' > $OUT/c4/sass_d11.txt
cd $OUT && tar czf c4.tgz c4 && rm -rf c4
