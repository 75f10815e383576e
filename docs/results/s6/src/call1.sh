#!/bin/bash
# session 6, call 1: chain-step A/B of the tiled kernel (GCHOL_EXP bits)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
for e in 0 1 2 4 8 15 0 15; do echo "=== EXP=$e"; ./scratch/s6/cp_$e; done 2>&1 | tee $OUT/chain_ab.log
echo "done t=$((SECONDS-S))"
