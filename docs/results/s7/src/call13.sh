#!/bin/bash
# session 7, call 13: ncu durations of the syrk_diag kernel, full storage vs RFP N,L (warm-up launches), 8192 x 32768 and 4096 x 65536
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi -L; R=$OUT/c13; mkdir -p $R
for sz in 8192:32768 4096:65536; do
  timeout 200 ncu -k regex:syrk_diag_kernel -c 4 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum,gpu__time_duration.sum \
    ./benchmarks/bench_syrk_diag --prec d --runs 1 --sizes $sz > $R/ncu_${sz/:/x}.log 2>&1
  echo "== $sz"; grep -E "syrk_diag_kernel|Duration|DRAM Throughput|dram__bytes|lts__t_sectors_op_write|L2 Hit|SM Frequency" $R/ncu_${sz/:/x}.log | sed 's/(int64_t.*//' | head -40
done
tar czf $OUT/c13.tgz -C $OUT c13 && rm -rf $R
