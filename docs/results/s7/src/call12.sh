#!/bin/bash
# session 7, call 12: full storage vs RFP, by leading dimension of C (pad 0 / 16 / 1)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi -L; R=$OUT/c12; mkdir -p $R
for pad in 0 16 1 0; do
  echo "== lddc pad $pad"
  ./benchmarks/bench_syrk_diag --prec d --runs 7 --sizes 4096:65536,8192:32768 --lddc-pad $pad > $R/pad_$pad.log 2>&1
  grep -vE '^#|^$' $R/pad_$pad.log | cut -c1-150
done
tar czf $OUT/c12.tgz -C $OUT c12 && rm -rf $R
