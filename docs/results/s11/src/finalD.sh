#!/bin/bash
# session 11, final call D: pftrf at 16384 / 32768 on the final tree (all four RFP variants, both precisions; the 'U' forms' half-size potrf of order 8192 now runs the tiled kernel in single)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/finalD; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in s d; do
  ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --form auto --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
  echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-100
done
rm -f $R/build.log
tar czf $OUT/finalD.tgz -C $OUT finalD && rm -rf $R
