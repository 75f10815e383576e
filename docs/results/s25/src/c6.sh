#!/bin/bash
# session 25, call 6 (the final tree): issue 3's full auto sweep (both precisions and triangles,
# 1023 .. 40960, median of 5, cuSOLVER and the GEMM ceilings in the same process); then
# memcheck of the quick dpotrf / spotrf suites and racecheck of the tiled kernel at 1000
# (single lower / upper, double lower), whose chain step changed this session.
source docs/results/call_common.sh c6 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
run bench_sweep --limit 420 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s %s\n", $1,$2,$3,$9,$12,$15,$NF}'
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
for p in d s; do run memcheck_${p}potrf --limit 560 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick; done
for c in "s L" "s U" "d L"; do set -- $c
  run racecheck_$1$2 --limit 590 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
