#!/bin/bash
# session 23, call 2: the A/B of call 1 again (the bench's --wls-only mode had left the device
# form's A unset): the least squares' C download beside the factorization (new) against after it
# (old, GCHOL_AB_WLS_C_AFTER=1), alternating processes, median of 5 each.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in d s; do
for round in 1 2; do
  for ab in old new; do
    if [ $ab = old ]; then export GCHOL_AB_WLS_C_AFTER=1; else unset GCHOL_AB_WLS_C_AFTER; fi
    timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec $p --runs 5 --wls-only > $R/ab_${p}_${ab}_$round.log 2>&1
    echo "$p $ab round $round t=$((SECONDS-S))"; grep "wls" $R/ab_${p}_${ab}_$round.log | awk '{print "   ", $0}'
    grep -i "failed" $R/ab_${p}_${ab}_$round.log
  done
done
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
