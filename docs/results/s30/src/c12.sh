#!/bin/bash
# session 30, call 12: the final library. Issue 3's sweep (both precisions and triangles, auto),
# issue 4's benchmarks (syrk_diag d and s with the four RFP variants, pftrf d), then double lower
# auto against nb 1024 / 256 at the sizes between the sweep's (26624, 28672, 30720: call 8 found
# 28672 slower with 2048).
source docs/results/call_common.sh c12 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf
sweep 230
issue4_rows 480
run mid --limit 590 ./benchmarks/bench_potrf -n 26624,28672,30720 --prec d --uplo L \
    --variant left --lookahead on --nb 1024,2048 --recnb 256 --niter 3
grep -E '^ *d +[0-9]+ L ' $R/mid.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - -
cp $R/*.csv $OUT/ 2>/dev/null
finish
