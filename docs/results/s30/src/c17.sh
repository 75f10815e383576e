#!/bin/bash
# session 30, call 17: the host interface (pinned host memory: direct copies interleaved with the
# left-looking lookahead) inherits the table's new nb 2048 / recnb 256 from 24576 (review of the
# session's change: not measured there). nb 1024 against 2048 (recnb 256), double lower, 24576 and
# 32768, median of 3, two rounds alternating; each process also times the device interface.
source docs/results/call_common.sh c17 lib benchmarks/bench_potrf
for r in 1 2; do
  for nb in 1024 2048; do
    run h${nb}_$r --limit $((r * 250)) ./benchmarks/bench_potrf -n 24576,32768 --prec d --uplo L \
        --variant left --lookahead on --nb $nb --recnb 256 --host-pinned --niter 3
    echo "nb $nb r$r: $(grep -E '^ *d +[0-9]+ L ' $R/h${nb}_$r.log | awk '{printf "%s %s %s/%s=%s  ", $2,$4,$9,$12,$15}')"
  done
done
finish
