#!/bin/bash
# session 10, call 13: fused pftrf 'U' in single at 12288 <= n < 16384, where the half-size potrf of L11 (order 6144-8191) now runs the tiled kernel with the view (--form auto) against left-looking with the swap as before (--form fused forces variant left there); two rounds, median of 3
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c13; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for r in 1 2; do for f in auto fused; do
  ./benchmarks/bench_pftrf --sizes 12288,14336,16000 --prec s --all-rfp --form $f --csv $R/pftrf_${f}_$r.csv > $R/pftrf_${f}_$r.log 2>&1
  echo "$f.$r $(grep -vE '^#|^$' $R/pftrf_${f}_$r.log | awk '{printf "%s%s%s %s  ", $1,$3,$4,$6}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c13.tgz -C $OUT c13 && rm -rf $R
