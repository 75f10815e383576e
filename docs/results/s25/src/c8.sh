#!/bin/bash
# session 25, call 8: 16-byte stores from shared memory in the tiled kernel (GCHOL_AB_VEC): V0 the
# tree after call 2 (4- / 8-byte stores); V1 store_tile of whole tiles in lower (L(k, k-1), the
# workers' solved tiles) and U(k) to the workspace as 16-byte vectors where aligned; V2 V1 with
# double lower's L(k, k-1) through shared memory too (no direct stores from the accumulators).
# build_ab.sh binaries: chainprof, bench_potrf d and s 1024-16384 both triangles two rounds
# alternating; quick potrf / pftrf suites of V1 and V2; racecheck of V1 at 1000.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c8; mkdir -p $R; AB=build/ab; tar xJf build/ab.tar.xz -C build
F="V0 V1 V2"
for r in 1 2; do for v in $F; do
  $AB/bench_potrf_$v -n 1024,2048,3072,4096,8192,16384 --prec ds --uplo LU --niter 7 > $R/bench_${v}_$r.log 2>&1
  echo "form $v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in $F; do timeout 60 $AB/chainprof_$v > $R/chainprof_$v.log 2>&1; echo "== chainprof $v"; grep -A2 -E "^[ds]L n= (1024|4096)" $R/chainprof_$v.log | grep -v "^--" | head -16; grep -E "^[ds]U n= 1024" $R/chainprof_$v.log; done
echo "t=$((SECONDS-S))"
for v in V1 V2; do for t in dpotrf spotrf dpftrf spftrf; do timeout 150 $AB/testing_${t}_$v --suite --quick > $R/quick_${t}_$v.log 2>&1
  echo "quick $t $v rc=$?: $(grep -E 'SUMMARY' $R/quick_${t}_$v.log | tail -1) t=$((SECONDS-S))"; grep FAIL $R/quick_${t}_$v.log | head -5; done; done
for t in dpotrf spotrf; do for u in L U; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $AB/testing_${t}_V1 -n 1000 --uplo $u --variant tiled --niter 1 > $R/racecheck_V1_${t}_$u.log 2>&1
  echo "racecheck V1 $t $u rc=$?: $(grep -E 'RACECHECK SUMMARY' $R/racecheck_V1_${t}_$u.log) t=$((SECONDS-S))"; done; done
gzip -9 -n $R/quick_*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
