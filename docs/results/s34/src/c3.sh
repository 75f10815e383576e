#!/bin/bash
# session 34, call 3: the landing library (kernel as in the thirty-second session; c2's register
# scaling reverted): bench_syrk_diag d --gemm-shape twice more (median of 9, other seeds), for the
# spread of the per-shape GEMM reference and of the peers, with nvidia-smi sampling as in c1.
source docs/results/call_common.sh c3 lib benchmarks/bench_syrk_diag
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,power.limit,clocks_throttle_reasons.active \
    --format=csv,noheader -lms 100 > $R/smi_gemm_shape.csv & SMI=$!
for r in 1 2; do
    run gemm_shape_$r --limit 400 ./benchmarks/bench_syrk_diag --prec d --gemm-shape --runs 9 \
        --seed $((2030 + r)) --csv $R/gemm_shape_$r.csv
    grep -vE '^$' "$R/gemm_shape_$r.log" | grep -v "^# [a-z]" | grep -E "ceiling|^ +[0-9]|cuBLAS dgemm" | cut -c1-175
done
kill $SMI
awk -F', ' '{gsub(/ W/,"",$3); gsub(/ MHz/,"",$2); if ($3+0 >= 600) {n++; p+=$3; c+=$2; r[$5]++}}
    END {printf "smi: %d samples >= 600 W: mean %.0f W, SM clock %.0f MHz;", n, p/n, c/n;
         for (k in r) printf " %s x%d", k, r[k]; print ""}' $R/smi_gemm_shape.csv
cp $R/*.csv $OUT/ 2>/dev/null
finish
