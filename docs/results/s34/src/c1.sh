#!/bin/bash
# session 34, call 1: the landing library (unchanged since the thirty-second session) on
# today's card: issue 4's rows, then bench_syrk_diag d with --gemm-shape (new this session):
# cuBLAS dgemm forming all of (AD)(AD)^T on each of the issue's shapes, timed in the same rounds
# as gchol and the peers, with nvidia-smi sampling clock and power every 100 ms meanwhile.
source docs/results/call_common.sh c1 all
issue4_rows 300
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,power.limit,clocks_throttle_reasons.active \
    --format=csv,noheader -lms 100 > $R/smi_gemm_shape.csv & SMI=$!
run bench_syrk_diag_d_gemm_shape --limit 480 ./benchmarks/bench_syrk_diag --prec d --gemm-shape \
    --runs 7 --csv $R/syrk_diag_d_gemm_shape.csv
kill $SMI
grep -vE '^$' "$R/bench_syrk_diag_d_gemm_shape.log" | grep -v "^# [a-z]" | cut -c1-170
# clock and power while the timed rounds ran (rows at >= 600 W: the FP64 load, not the gaps)
awk -F', ' '{gsub(/ W/,"",$3); gsub(/ MHz/,"",$2); if ($3+0 >= 600) {n++; p+=$3; c+=$2; r[$5]++}}
    END {printf "smi: %d samples >= 600 W: mean %.0f W, SM clock %.0f MHz;", n, p/n, c/n;
         for (k in r) printf " %s x%d", k, r[k]; print ""}' $R/smi_gemm_shape.csv
cp $R/*.csv $OUT/ 2>/dev/null
finish
