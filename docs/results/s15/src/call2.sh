#!/bin/bash
# session 15, call 2: cublasLt's algorithms against cublasDgemm on the left-looking update shapes (ltbench.cu).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c2; mkdir -p $R
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/ltbench docs/results/s15/src/ltbench.cu -lcublasLt -lcublas > $R/build.log 2>&1 || { tail $R/build.log; exit 1; }
timeout 400 /tmp/ltbench > $R/ltbench.log 2>&1; echo "rc=$? t=$((SECONDS-S))"
grep SUM $R/ltbench.log; grep -E "n=16384|n=32768" $R/ltbench.log | grep -v SUM | cut -c1-60,200-400 | head -50
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
