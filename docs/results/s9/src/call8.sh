#!/bin/bash
# session 9, call 8: single precision below the tiled switch (7168): tiled against left-looking nb 1024 / recnb 1024 with lookahead, L and U (view and swap), twice
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
N=4096,4608,5120,5632,6144,6656,7167,7168
for rep in 1 2; do
./benchmarks/bench_potrf -n $N --prec s --uplo LU --upper both --variant tiled --niter 7 --csv $R/tiled_$rep.csv > $R/tiled_$rep.log 2>&1
./benchmarks/bench_potrf -n $N --prec s --uplo LU --upper both --variant left --lookahead on --nb 1024 --recnb 1024 --niter 7 --csv $R/left_$rep.csv > $R/left_$rep.log 2>&1
echo "== run $rep"; paste <(grep -E '^ *s +[0-9]+ [LU] ' $R/tiled_$rep.log | awk '{printf "%s %s %-12s %s\n", $2,$3,$4,$9}') <(grep -E '^ *s +[0-9]+ [LU] ' $R/left_$rep.log | awk '{printf "%-12s %s cus %s\n", $4,$9,$12}')
done; echo "done t=$((SECONDS-S))"
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
