#!/bin/bash
# session 25, call 3: the chain step with L(k, k-1)'s stores and the identity below issued by the
# four warps that have two of W -= X X^T's tiles, before their DMMAs (E, GCHOL_AB_OVERLAP=1),
# against the tree after call 2 (B, =0); build_ab.sh binaries. chainprof, bench_potrf d and s
# 1024-8192 both triangles two rounds alternating; quick dpotrf / spotrf suites of E; racecheck
# of E's tiled kernel at 1000 in both precisions and triangles.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c3; mkdir -p $R; AB=build/ab; tar xJf build/ab.tar.xz -C build
F="B E"
for r in 1 2; do for v in $F; do
  $AB/bench_potrf_$v -n 1024,2048,3072,4096,8192 --prec ds --uplo LU --niter 9 > $R/bench_${v}_$r.log 2>&1
  echo "form $v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in $F; do timeout 60 $AB/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -A2 -E "^[ds]L n= (1024|4096)" $R/chainprof_$v.log | grep -v "^--" | head -16; grep -E "^[ds]U n= 1024" $R/chainprof_$v.log; done
echo "t=$((SECONDS-S))"
for t in dpotrf spotrf; do timeout 150 $AB/testing_${t}_E --suite --quick > $R/quick_${t}_E.log 2>&1
  echo "quick $t E rc=$?: $(grep -E 'SUMMARY' $R/quick_${t}_E.log | tail -1) t=$((SECONDS-S))"; grep FAIL $R/quick_${t}_E.log | head -5; done
for t in dpotrf spotrf; do for u in L U; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $AB/testing_${t}_E -n 1000 --uplo $u --variant tiled --niter 1 > $R/racecheck_E_${t}_$u.log 2>&1
  echo "racecheck E $t $u rc=$?: $(grep -E 'RACECHECK SUMMARY' $R/racecheck_E_${t}_$u.log) t=$((SECONDS-S))"; done; done
gzip -9 -n $R/quick_*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
