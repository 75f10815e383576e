#!/bin/bash
# session 32, call 8: c5's sweep had single upper 1025 at 0.220 ms against lower's 0.175 (+26%;
# the thirty-first session's sweep 0.173 / 0.174) and 4097 at 0.927 against 0.875. The same
# cells in three processes (the library did not change for single or for these sizes).
source docs/results/call_common.sh c8 lib benchmarks/bench_potrf
for r in 1 2 3; do
  run s$r --limit 200 ./benchmarks/bench_potrf -n 1023,1024,1025,4095,4096,4097 --prec s --uplo LU \
      --variant auto --niter 5
  echo "r$r: $(grep -E '^ *s +[0-9]+ [LU] auto' $R/s$r.log | awk '{printf "%s%s %s/%s  ", $2,$3,$9,$12}')"
done
finish
