#!/bin/bash
# session 31, call 2: (a) double lower between the sweep's sizes, where the table's nb 2048 row
# (from 24576) ran slower at 28672 in the thirtieth session: nb 1024 / 1536 / 2048 with recnb 256
# at 27648 / 28672 / 29696, two rounds in separate processes; (b) issue 3's sweep of the tree
# (library as 3952521, both precisions and triangles, auto).
source docs/results/call_common.sh c2 lib benchmarks/bench_potrf
for r in 1 2; do
    run mid$r --limit 200 ./benchmarks/bench_potrf -n 27648,28672,29696 --prec d --uplo L \
        --variant left --lookahead on --nb 1024,1536,2048 --recnb 256 --niter 3
    grep -E '^ *d +[0-9]+ L ' $R/mid$r.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - -
done
sweep 590
cp $R/*.csv $OUT/ 2>/dev/null
finish
