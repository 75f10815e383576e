#!/bin/bash
# session 25, call 4: the chain block's stores by bulk copies (TMA cp.async.bulk, issued by the
# publisher's warp, waited for before the flags): B0 none (the tree after call 2), X1 L(k, k-1)
# in lower, XU that and U(k) to the workspace (both triangles). chainprof, bench_potrf d and s
# 1024-8192 both triangles two rounds alternating; quick dpotrf / spotrf / spftrf suites of XU;
# racecheck and synccheck of XU's tiled kernel at 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R; AB=build/ab; tar xJf build/ab.tar.xz -C build
F="B0 X1 XU"
for r in 1 2; do for v in $F; do
  $AB/bench_potrf_$v -n 1024,2048,3072,4096,8192 --prec ds --uplo LU --niter 9 > $R/bench_${v}_$r.log 2>&1
  echo "form $v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in $F; do timeout 60 $AB/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -A2 -E "^[ds]L n= (1024|4096)" $R/chainprof_$v.log | grep -v "^--" | head -16; grep -E "^[ds]U n= 1024" $R/chainprof_$v.log; done
echo "t=$((SECONDS-S))"
for t in dpotrf spotrf spftrf; do timeout 150 $AB/testing_${t}_XU --suite --quick > $R/quick_${t}_XU.log 2>&1
  echo "quick $t XU rc=$?: $(grep -E 'SUMMARY' $R/quick_${t}_XU.log | tail -1) t=$((SECONDS-S))"; grep FAIL $R/quick_${t}_XU.log | head -5; done
for t in dpotrf spotrf; do for u in L U; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $AB/testing_${t}_XU -n 1000 --uplo $u --variant tiled --niter 1 > $R/racecheck_XU_${t}_$u.log 2>&1
  echo "racecheck XU $t $u rc=$?: $(grep -E 'RACECHECK SUMMARY' $R/racecheck_XU_${t}_$u.log) t=$((SECONDS-S))"; done; done
timeout 100 compute-sanitizer --tool synccheck --error-exitcode 1 $AB/testing_spotrf_XU -n 1000 --uplo L --variant tiled --niter 1 > $R/synccheck_XU_sL.log 2>&1
echo "synccheck XU s L rc=$?: $(grep -E 'ERROR SUMMARY' $R/synccheck_XU_sL.log) t=$((SECONDS-S))"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $AB/testing_spotrf_XU -n 1000,1001,1003 --uplo L --variant tiled --niter 1 > $R/memcheck_XU_sL.log 2>&1
echo "memcheck XU s L rc=$?: $(grep -E 'ERROR SUMMARY' $R/memcheck_XU_sL.log) t=$((SECONDS-S))"
gzip -9 -n $R/quick_*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
