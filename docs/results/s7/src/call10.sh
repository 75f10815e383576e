#!/bin/bash
# session 7, call 10: A*D^2*A^T bench with the round-robin order rotated each round (double, all RFP), twice
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi -L; R=$OUT/c10; mkdir -p $R
for r in 1 2; do
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag_$r.csv > $R/bench_syrk_diag_$r.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag_$r.log | cut -c1-150
done
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
