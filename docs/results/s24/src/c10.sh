#!/bin/bash
# session 24, call 10: issue 4's pftrf rows on the final tree (bench_pftrf d at 16384 / 32768,
# all four variants, against the full potrf and cuSOLVER in the same process).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
make -j16 lib benchmarks/bench_pftrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout 500 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d rc=$? t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-160
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
