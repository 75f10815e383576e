#!/bin/bash
# session 9, call 7: single 'U' on the tiled kernel's range: view against whole-matrix swap (bench_potrf --upper both), twice
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for rep in 1 2; do
./benchmarks/bench_potrf -n 3072,4096,5120,6144,6656,7167 --prec s --uplo LU --upper both --niter 7 --csv $R/ab_s_$rep.csv > $R/ab_s_$rep.log 2>&1
echo "== run $rep"; grep -E '^ *[ds] +[0-9]+ [LU] ' $R/ab_s_$rep.log | awk '{printf "%s %s %s %-16s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'
done; echo "done t=$((SECONDS-S))"
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
