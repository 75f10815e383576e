#!/bin/bash
# session 9, call 9: issue 4's rows on the final tree: bench_syrk_diag both precisions (all RFP variants, shuffled order, 9 runs) and pftrf at 16384 / 32768 in both precisions
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in s d; do
./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 9 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-170; echo "syrk $p t=$((SECONDS-S))"
done
for p in d s; do
./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --form auto --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-100
done
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
