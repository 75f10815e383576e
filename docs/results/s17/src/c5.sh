#!/bin/bash
# session 17, call 5 (final tree): is the realigned 'N' layout also no loss at small and medium n (four-step form
# below 4608 in double / 6144 in single)? bench_pftrf 1024-8192, all four variants, realignment on / off, d and s.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in d s; do for r in 1 0; do
GCHOL_RFP_REALIGN=$r timeout 100 ./benchmarks/bench_pftrf --sizes 1024,2048,4096,6144,8192 --prec $p --all-rfp --runs 5 --csv $R/pftrf_${p}_r$r.csv > $R/pftrf_${p}_r$r.log 2>&1
echo "== pftrf $p realign=$r t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_${p}_r$r.log | grep ' N ' | cut -c1-60
done; done
rm -f $R/build.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
