#!/bin/bash
# session 22, call 5: the host syrk_diag's largest block (GCHOL_HOST_CHUNK_BYTES;
# the first block 1/8 of it, doubling): 128 MB, 256 MB, 512 MB, 1 GiB (the
# default), two rounds alternating, double, three shapes.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for round in 1 2; do
  for cap in 134217728 268435456 536870912 1073741824; do
    GCHOL_HOST_CHUNK_BYTES=$cap timeout $((590-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec d --runs 3 \
      --shapes 4096x65536,8192x32768,16384x16384 > $R/cap${cap}_r$round.log 2>&1
    echo "== cap $cap round $round t=$((SECONDS-S))"
    grep -E "m x n|gchol host|in the host" $R/cap${cap}_r$round.log
  done
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
