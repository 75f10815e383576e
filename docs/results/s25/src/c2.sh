#!/bin/bash
# session 25, call 2: single precision's chain step, four forms built by build_ab.sh:
#   A HEAD; B the chain's W -= X X^T on DMMA (float operands converted); C B + potf2's inner
#   update (a) on DMMA in single too (potf2_panel, so also the standalone potf2 / trsm kernels);
#   D C + X stored straight from the accumulators in single lower (as double lower).
# syrkbench (one block: the products and potf2 of [W; I], cycles, errors), chainprof, bench_potrf
# single 1024-16384 both triangles (auto) against cuSOLVER, two rounds, alternating; quick spotrf
# and spftrf suites of C and D; racecheck of the tiled kernel in C, s L 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c2; mkdir -p $R; AB=build/ab; tar xJf build/ab.tar.xz -C build
F="A B C D"
for v in $F; do $AB/syrkbench_$v > $R/syrkbench_$v.log 2>&1; echo "form $v: $(cat $R/syrkbench_$v.log)"; done
for r in 1 2; do for v in $F; do
  $AB/bench_potrf_$v -n 1024,2048,3072,4096,8192,16384 --prec s --uplo LU --niter 9 > $R/bench_${v}_$r.log 2>&1
  echo "form $v.$r: $(grep -E '^ *s +[0-9]+ [LU] auto' $R/bench_${v}_$r.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in $F; do timeout 60 $AB/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -A2 -E "^sL n= (1024|4096)" $R/chainprof_$v.log | head -8; done
echo "t=$((SECONDS-S))"
for v in C D; do for t in spotrf spftrf; do timeout 200 $AB/testing_${t}_$v --suite --quick > $R/quick_${t}_$v.log 2>&1
  echo "quick $t form $v rc=$?: $(grep -E 'SUMMARY' $R/quick_${t}_$v.log | tail -1) t=$((SECONDS-S))"; grep FAIL $R/quick_${t}_$v.log | head -5; done; done
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $AB/testing_spotrf_C -n 1000 --uplo L --variant tiled --niter 1 > $R/racecheck_C_sL1000.log 2>&1
echo "racecheck C s L 1000 rc=$?: $(grep -E 'RACECHECK SUMMARY' $R/racecheck_C_sL1000.log) t=$((SECONDS-S))"
gzip -9 -n $R/quick_*.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
