#!/bin/bash
# session 33, call 3: double lower's block size at 12288 / 16384 once more, nb 512 and 640
# included (last swept in the fourth session, before the tiled panels' chain got its helper
# and the panels' cost fell; the twenty-third and twenty-eighth sessions swept 768-2048 only).
# Two rounds, the table's auto first in each.
source docs/results/call_common.sh c3 benchmarks/bench_potrf
for r in 1 2; do
  run auto_$r --limit 560 ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --variant auto --niter 5
  run nb_$r --limit 560 ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --variant left \
      --lookahead on --nb 512,640,768,1024 --recnb 128,256,512 --niter 5
done
for f in $R/auto_*.log $R/nb_*.log; do
  echo "== $(basename $f .log)"
  grep -E '^ *d +[0-9]+ L' $f | awk '{printf "%s nb=%s rec=%s %s/%s=%s\n", $2, $6, $7, $9, $12, $15}'
done
finish
