#!/bin/bash
# session 8, call 5: R1 variants: flush every 2 stages (R1f2), stages of 64 columns (R1k64)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c5; mkdir -p $R
for v in R1f2 R1k64; do
  timeout 100 scratch/s8/tss_$v --suite --quick > $R/quick_$v.log 2>&1; echo "$v quick: $(grep SUMMARY $R/quick_$v.log)"; grep FAILED $R/quick_$v.log | head -3 | cut -c1-200
  timeout 60 scratch/s8/tss_$v -m 1024,4096 -n 65536,4096 --d rand > $R/acc_$v.log 2>&1; grep -vE '^#|^$' $R/acc_$v.log | tail -5 | cut -c1-160
  echo "t=$((SECONDS-S))"
done
for v in R1 R1f2 R1k64 R1; do
  timeout 120 scratch/s8/bsd_$v --prec s --runs 5 > $R/bench_$v.log 2>&1; echo "== $v"; grep -vE '^#|^$' $R/bench_$v.log | cut -c1-170
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
