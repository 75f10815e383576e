#!/bin/bash
# session 25, call 7 (the final tree): issue 4's rows, bench_syrk_diag d and s --all-rfp (full
# storage against cuBLAS dgmm + dsyrk / dsyrkx in the same process, and the four RFP variants),
# then bench_pftrf d at 16384 / 32768, all four variants, against the full potrf.
source docs/results/call_common.sh c7 lib benchmarks/bench_syrk_diag benchmarks/bench_pftrf
for p in d s; do
  run bench_syrk_diag_$p --limit 330 ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv
  grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-150
done
run bench_pftrf_d --limit 590 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv
grep -vE '^#|^$' $R/bench_pftrf_d.log | cut -c1-160
finish
