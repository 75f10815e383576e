#!/bin/bash
# session 26, call 1: 'U' by the tiled kernel's view against the whole-matrix swap around the
# tiled lower (--upper both), both precisions, tiled sizes, two rounds; lower beside them.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf
for r in 1 2; do
  run upper_both_$r --limit 300 ./benchmarks/bench_potrf -n 1023,1024,1025,1536,2048,3072,4095,4096,4097,6144,8191 \
      --prec ds --uplo LU --variant tiled --upper both --niter 7 --csv $R/upper_both_$r.csv
  grep -E '^ *[ds] +[0-9]+ [LU]' $R/upper_both_$r.log | awk '{printf "%s %s %s %s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'
done
finish
