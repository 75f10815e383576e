#!/bin/bash
# session 33, call 8 (measurement only): cuBLAS DGEMM's rate on this card against its input
# data (src/dgemm_data.cu), to set the issue's "57 TFLOP/s, 88% of cuBLAS DGEMM" (the anchors'
# 64.6 at 16384) beside what the sweeps measure on random data (54-58).
set -u
R=$OUT/c8; mkdir -p $R
nvidia-smi -L
nvcc -O2 -arch=sm_90 docs/results/s33/src/dgemm_data.cu -o /tmp/dgemm_data -lcublas -lcurand
/tmp/dgemm_data 2>&1 | tee $R/dgemm_data.log
/tmp/dgemm_data 2>&1 | tee $R/dgemm_data_2.log
