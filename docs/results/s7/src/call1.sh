#!/bin/bash
# session 7, call 1: DMMA shape and d-scaling variants of the syrk_diag kernel
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $OUT/c1/gpu.txt
./scratch/s7/mmabench 2>&1 | tee $OUT/c1/mmabench.log
if [ -x /usr/local/cuda/bin/cuobjdump ]; then
  for v in 4_1 8_1 16_1; do /usr/local/cuda/bin/cuobjdump -sass scratch/s7/bsd_$v | grep -o "DMMA[.0-9A-Za-z]*" | sort | uniq -c > $OUT/c1/sass_$v.txt; done
  /usr/local/cuda/bin/cuobjdump -sass scratch/s7/bsd_8_1 > $OUT/c1/sass_8_1_full.txt
else echo "no cuobjdump"; fi
for v in 4_0 4_1 8_0 8_1 16_0 16_1; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec d --runs 5 --csv $OUT/c1/sd_$v.csv > $OUT/c1/sd_$v.log 2>&1
  grep -v '^#' $OUT/c1/sd_$v.log | tail -8
done
cd $OUT && tar czf c1.tgz c1 && rm -rf c1
