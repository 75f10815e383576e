#!/bin/bash
# session 15, call 6 (for the next session): which attribute of call 2's fixed cublasLt struct made it
# 6% faster than cublasDgemm at n = 32768 (ltprobe.cu), at 24576-40960.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c6; mkdir -p $R
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/ltprobe docs/results/s15/src/ltprobe.cu -lcublasLt -lcublas > $R/build.log 2>&1 || { tail $R/build.log; exit 1; }
timeout 550 /tmp/ltprobe > $R/ltprobe.log 2>&1; echo "rc=$? t=$((SECONDS-S))"
grep -E "fixed:|SUM" $R/ltprobe.log
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
