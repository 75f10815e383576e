#!/bin/bash
# session 25, call 1: the chain block's W -= X X^T in single, three forms (GCHOL_AB_CHAIN_SYRK = 0
# HEAD, 1 DMMA on converted floats, 2 3xTF32 with the warp's tiles in one k loop), binaries
# built by build_ab.sh (build/ab/): syrkbench (the product alone, cycles, error), chainprof
# (chain-step phases), bench_potrf single 1024-4096 both triangles (auto = tiled) against
# cuSOLVER, two rounds; the quick spotrf suite of forms 1 and 2.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R; AB=build/ab; tar xJf build/ab.tar.xz -C build
for v in 0 1 2; do $AB/syrkbench_$v > $R/syrkbench_$v.log 2>&1; echo "syrk form $v: $(cat $R/syrkbench_$v.log)"; done
for r in 1 2; do for v in 0 1 2; do
  $AB/bench_potrf_$v -n 1024,2048,3072,4096 --prec s --uplo LU --niter 9 > $R/bench_${v}_$r.log 2>&1
  echo "form $v.$r: $(grep -E '^ *s +[0-9]+ [LU] auto' $R/bench_${v}_$r.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in 0 1 2; do timeout 60 $AB/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -A2 -E "^sL n= (1024|4096)" $R/chainprof_$v.log | head -8; done
echo "t=$((SECONDS-S))"
for v in 1 2; do timeout 150 $AB/testing_spotrf_$v --suite --quick > $R/quick_spotrf_$v.log 2>&1
  echo "quick spotrf form $v rc=$?: $(grep -E 'SUMMARY|passed' $R/quick_spotrf_$v.log | tail -1) t=$((SECONDS-S))"; grep FAIL $R/quick_spotrf_$v.log | head -5; done
gzip -9 -n $R/quick_*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
