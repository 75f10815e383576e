#!/bin/bash
# session 7, call 7: ncu of the single-precision syrk_diag kernel, and its SASS
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c7
timeout 200 ncu -k regex:syrk_diag_kernel -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section InstructionStats --section ComputeWorkloadAnalysis \
  --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__average_warp_latency_issue_stalled_mio_throttle,smsp__average_warp_latency_issue_stalled_short_scoreboard,smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warp_latency_issue_stalled_math_pipe_throttle,smsp__average_warp_latency_issue_stalled_wait,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__average_warp_latency_issue_stalled_not_selected,smsp__average_warp_latency_issue_stalled_dispatch_stall \
  ./benchmarks/bench_syrk_diag --prec s --runs 1 --sizes 8192:32768 > $OUT/c7/ncu_s.log 2>&1
grep -E "Duration|Throughput|Stall|Issued Warp|No Eligible|Active Warps|Registers|wavefronts|inst_executed|bank_conflicts|stalled|Pipe" $OUT/c7/ncu_s.log | head -60
/usr/local/cuda/bin/cuobjdump -sass -fun '_ZN5gchol45_GLOBAL__N__' lib/libgchol.a > /dev/null 2>&1
/usr/local/cuda/bin/cuobjdump -sass benchmarks/bench_syrk_diag > $OUT/c7/sass_all.txt 2>&1
awk '/Function : .*syrk_diag_kernelIfLb1/{f=1} f&&/Function : /&&!/syrk_diag_kernelIfLb1/{f=0} f' $OUT/c7/sass_all.txt > $OUT/c7/sass_f1.txt; rm $OUT/c7/sass_all.txt; wc -l $OUT/c7/sass_f1.txt
cd $OUT && tar czf c7.tgz c7 && rm -rf c7
