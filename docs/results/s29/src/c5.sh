#!/bin/bash
# session 29, call 5: the final tree. Issue 3's sweep (both precisions and triangles, auto) and
# issue 4's benchmarks (syrk_diag d + s
# with the four RFP variants, pftrf d), as in s28 c4 / c9.
source docs/results/call_common.sh c5 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf
run bench_sweep --limit 200 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste -d' ' - - - -
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
for p in d s; do
  run bench_syrk_diag_$p --limit 420 ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv
  grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-150
done
run bench_pftrf_d --limit 520 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv
grep -vE '^#|^$' $R/bench_pftrf_d.log | cut -c1-160
cp $R/*.csv $OUT/ 2>/dev/null
finish
