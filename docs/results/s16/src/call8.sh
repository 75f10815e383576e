#!/bin/bash
# session 16, call 8 (run after final B): FP64 products emulated on the INT8 tensor cores (Ozaki
# scheme II, oz_common.cuh). (1) ozbench.cu: 13 / 14 / 16 moduli against cublasDgemm on left-looking
# update shapes of n = 32768 / 40960 and a square 8192^3 product (at ld N, as the factorization has
# them): ms of each step, the INT8 rate, errors of both against a long-double reference. (2) ozchol.cu:
# a left-looking Cholesky (nb 1024, no lookahead) with that update (14 and 16 moduli, rows scaled by
# sqrt(a_ii)) against the same loop on cuBLAS, gchol's dpotrf and cuSOLVER, in one process, with
# bench_potrf's residual check; 16384 / 32768 / 40960. (3) memcheck of both on small sizes.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c8; mkdir -p $R
make -j16 lib > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -arch=sm_90 -std=c++17"
$NV -o /tmp/ozbench docs/results/s16/src/ozbench.cu -lcublasLt -lcublas >> $R/build.log 2>&1 || { tail $R/build.log; exit 1; }
$NV -Iinclude -o /tmp/ozchol docs/results/s16/src/ozchol.cu lib/libgchol.a -lcusolver -lcublasLt -lcublas -lpthread >> $R/build.log 2>&1 || { tail $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 150 /tmp/ozchol > $R/ozchol.log 2>&1; echo "ozchol rc=$? t=$((SECONDS-S))"; cat $R/ozchol.log
timeout 170 /tmp/ozbench > $R/ozbench.log 2>&1; echo "ozbench rc=$? t=$((SECONDS-S))"
cut -c1-300 $R/ozbench.log
for p in ozbench ozchol; do
  timeout 45 compute-sanitizer --tool memcheck /tmp/$p --quick > $R/memcheck_$p.log 2>&1; echo "memcheck $p rc=$? $(grep 'ERROR SUMMARY' $R/memcheck_$p.log | tail -1) t=$((SECONDS-S))"
done
gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
