#!/bin/bash
# session 31, call 3: the table's new double row (27648 <= n < 30720: 1024 / 256) checked at
# sizes it was not fitted on: auto against nb 1024 and 2048 (recnb 256) at 27136, 28160, 29184,
# 30208 and 31232, three rounds in separate processes; testing_host (the table's expectations);
# then issue 4's benchmarks (syrk_diag d and s, pftrf d).
source docs/results/call_common.sh c3 lib testing/testing_host benchmarks/bench_potrf \
    benchmarks/bench_syrk_diag benchmarks/bench_pftrf
for r in 1 2 3; do
    run band$r --limit 200 ./benchmarks/bench_potrf -n 27136,28160,29184,30208,31232 --prec d \
        --uplo L --variant left --lookahead on --nb 1024,2048 --recnb 256 --niter 3
    run auto$r --limit 200 ./benchmarks/bench_potrf -n 27136,28160,29184,30208,31232 --prec d \
        --uplo L --variant auto --niter 3
    for n in 27136 28160 29184 30208 31232; do
        echo "$r $n $(grep -E "^ *d +$n L " $R/band$r.log | awk '{printf "%s %s  ", $6,$9}') auto $(grep -E "^ *d +$n L " $R/auto$r.log | awk '{printf "%s %s", $6,$9}')"
    done
done
run testing_host --limit 240 ./testing/testing_host
issue4_rows 590
cp $R/*.csv $OUT/ 2>/dev/null
finish
