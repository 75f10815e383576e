#!/bin/bash
# session 16, call 8 (for the next session): ozbench.cu -- FP64 products emulated on the INT8 tensor
# cores (Ozaki scheme II, 13 / 14 / 16 moduli) against cublasDgemm on left-looking update shapes of
# n = 32768 / 40960 and on 8192^3 (at ld N, as the factorization has them): ms of each step, the INT8 rate, and the errors of both against a
# long-double reference on sampled entries. Decides whether an emulated bulk update is worth building.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c8; mkdir -p $R
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/ozbench docs/results/s16/src/ozbench.cu -lcublasLt -lcublas > $R/build.log 2>&1 || { tail $R/build.log; exit 1; }
timeout 400 /tmp/ozbench > $R/ozbench.log 2>&1; echo "rc=$? t=$((SECONDS-S))"
cut -c1-260 $R/ozbench.log
timeout 120 compute-sanitizer --tool memcheck /tmp/ozbench --quick > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $R/memcheck.log | tail -1) t=$((SECONDS-S))"
gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
