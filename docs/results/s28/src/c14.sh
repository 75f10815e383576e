#!/bin/bash
# session 28, call 14: double's block sizes again at 12288 / 16384 (lower, left-looking with
# lookahead), now that the tiled panels have the chain block's helper (s27): nb 768..2048 x recnb
# 256..1024, two rounds; auto beside them.
source docs/results/call_common.sh c14 lib benchmarks/bench_potrf
for r in 1 2; do
  run nb_$r --limit 280 ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --variant left --nb 768,1024,1536,2048 --recnb 256,512,1024 --niter 5
  grep -E '^ *d +[0-9]+ L left' $R/nb_$r.log | awk '{printf "%s nb %s/%s %s ms (%s)\n", $2, $6, $7, $9, $15}' | paste -d' ' - - - - - -
done
finish
