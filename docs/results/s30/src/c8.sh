#!/bin/bash
# session 30, call 8: nb 1024 against 2048 (recnb 256) from 24576 to 40960, the two in the same
# process. Calls 6-7: 2048 faster at 24576 (3.5%), 36864 (1.8%) and 40960 (0.8%), at 32768 by 2-4%
# in call 6 but 228 ms in call 7 (the process's spread), slower at 28672 (one round). Left, lookahead
# on, lower, median of 3, two rounds.
source docs/results/call_common.sh c8 lib benchmarks/bench_potrf
pr() { grep -E '^ *d +[0-9]+ L ' $R/$1.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - ; }
for r in 1 2; do
  run n_$r --limit $((r * 270)) ./benchmarks/bench_potrf -n 24576,28672,32768,36864,40960 --prec d --uplo L \
      --variant left --lookahead on --nb 1024,2048 --recnb 256 --niter 3
  pr n_$r
done
finish
