#!/bin/bash
# session 21, call 8 (the final tree): issue 4's benchmark rows in this session. bench_syrk_diag
# in both precisions (full storage and the four RFP variants against cuBLAS dgmm + dsyrk and
# dsyrkx, the four shapes, median of 5), bench_pftrf in double at 16384 / 32768 (all
# four RFP variants against gchol's full dpotrf and cuSOLVER).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag benchmarks/bench_pftrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for p in d s; do
  timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  echo "== syrk_diag $p rc=$? t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-160
done
timeout $((580-SECONDS)) ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d rc=$? t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-140
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
