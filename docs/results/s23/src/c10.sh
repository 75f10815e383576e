#!/bin/bash
# session 23, call 10: issue 4's rows (bench_syrk_diag d and s, full and the four RFP variants
# against cuBLAS dgmm + dsyrk and dsyrkx, median of 5; bench_pftrf d at 16384 / 32768); n = 1024
# again (call 9's single lower 1024 ran during a clock dip: cuSOLVER 0.414 ms against its usual
# 0.34); single pftrf with the new table's block sizes against the old ones (A/B, alternating).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
make -j16 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in d s; do
  timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  echo "== syrk_diag $p rc=$? t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-160
done
timeout $((585-SECONDS)) ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d rc=$? t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-140
for r in 1 2; do
  timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 1023,1024,1025 --prec ds --uplo LU --niter 5 > $R/n1024_$r.log 2>&1
  echo "n1024 round $r"; grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/n1024_$r.log | awk '{printf "   %s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'
done
for r in 1 2; do
  for ab in old new; do
    o=""; [ $ab = old ] && o="--nb 1024 --recnb 512"
    timeout $((590-SECONDS)) ./benchmarks/bench_pftrf --sizes 16384 --prec s --all-rfp --runs 5 $o > $R/pftrf_s16384_${ab}_$r.log 2>&1
    o=""; [ $ab = old ] && o="--nb 1024 --recnb 256"
    timeout $((590-SECONDS)) ./benchmarks/bench_pftrf --sizes 32768 --prec s --all-rfp --runs 3 $o > $R/pftrf_s32768_${ab}_$r.log 2>&1
    echo "pftrf s $ab $r t=$((SECONDS-S)):"; cat $R/pftrf_s16384_${ab}_$r.log $R/pftrf_s32768_${ab}_$r.log | grep -E '^ +[0-9]+ s' | awk '{printf "   %s %s%s %s (potrf %s) %s\n", $1,$3,$4,$6,$9,$NF}'
  done
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
