#!/bin/bash
# session 27, call 2: the helper on mbarriers, taking every column final so far in one pass, storing
# L(k+1, k) as it goes. Quick suites (helper on; the suites' failing matrices run the failure path);
# chainprof with the helper told per eight columns (mode 1) and after potf2 only (mode 2, to see what
# the arrivals inside potf2 cost); tiled sizes on / off / mode 2 / HEAD; racecheck, memcheck.
source docs/results/call_common.sh c2 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
run chainprof_m1 --limit 200 ./build/chainprof27
grep -E "helper profile" $R/chainprof_m1.log | cut -c1-36,90-400 | head -8
run chainprof_m2 --limit 230 env GCHOL_TILED_HELPER=2 ./build/chainprof27
grep -E "helper profile" $R/chainprof_m2.log | cut -c1-36,90-400 | head -4
for r in 1 2; do for v in on off m2 head; do b=./benchmarks/bench_potrf; e=""; [ $v = head ] && b=build/ab/bench_potrf_head; [ $v = off ] && e="GCHOL_TILED_HELPER=0"; [ $v = m2 ] && e="GCHOL_TILED_HELPER=2"
  [ $v = m2 -a $r = 2 ] && continue
  run ab_${v}_$r --limit 400 env $e $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
run racecheck_sL --limit 470 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
grep -m3 -E "Race reported|and (Read|Write)" $R/racecheck_sL.log | cut -c1-200
run memcheck_dU --limit 520 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000 --uplo U --variant tiled --niter 1
finish
