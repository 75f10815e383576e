#!/bin/bash
# session 15, call 1: right-looking update with an aligned panel copy against the odd leading
# dimension of RFP 'N' (rlbench.cu); cublasLt's heuristic list on an odd-ld left-looking gemm;
# the full-storage drivers left / right at 16384 / 32768 (double, lower); pftrf N,L / T,L fused.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/rlbench docs/results/s15/src/rlbench.cu lib/libgchol.a -lcublasLt -lcublas > $R/rlbuild.log 2>&1 || { tail $R/rlbuild.log; exit 1; }
timeout 200 /tmp/rlbench > $R/rlbench.log 2>&1; echo "rc=$? t=$((SECONDS-S))"; cat $R/rlbench.log
./benchmarks/bench_potrf -n 16384,32768 --prec d --uplo L --variant all --niter 3 > $R/variants.log 2>&1
grep -E '^ *d ' $R/variants.log | cut -c1-110; echo "t=$((SECONDS-S))"
timeout 120 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto > $R/pftrf_d.log 2>&1
grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-100; echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
