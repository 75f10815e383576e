#!/bin/bash
# session 28, call 9: the final tree; the issue-3 sweep with bench_time_job's warm-up now at least
# 25 ms of GPU work (c4's and c7's sweeps each had lower cells right after a new matrix 15-33%
# slow in both contenders).
source docs/results/call_common.sh c9 lib benchmarks/bench_potrf
run bench_sweep --limit 300 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste -d' ' - - - -
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
finish
