#!/bin/bash
# session 8, call 6: bench_syrk_diag contender order: cyclic (each contender keeps its predecessor: full after cuBLAS syrkx) against shuffled per round
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/order; mkdir -p $R
for o in cyclic1 shuffle1 cyclic2 shuffle2; do
  for p in d s; do
    ./benchmarks/bench_syrk_diag --prec $p --sizes 8192:32768,16384:16384,4096:65536 --all-rfp --runs 7 --order ${o%[12]} > $R/${o}_$p.log 2>&1
    echo "== $o $p"; grep -vE '^#|^$' $R/${o}_$p.log | cut -c1-150 | grep -v "RFP transr N uplo U"
  done; echo "t=$((SECONDS-S))"
done
tar czf $OUT/order.tgz -C $OUT order && rm -rf $R
