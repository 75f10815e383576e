#!/bin/bash
# session 27, call 5: the helper: 3xTF32 products in single, P fetched first and W beside it or later;
# Quick suites; chainprof helper on / off; tiled sizes
# on / off / HEAD, two rounds; racecheck, memcheck.
source docs/results/call_common.sh c5 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
for m in 1 0; do
  run chainprof_m$m --limit 200 env GCHOL_TILED_HELPER=$m ./build/chainprof27
  grep -E "helper profile|chain alone" $R/chainprof_m$m.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-230 | head -8
done
for r in 1 2; do for v in on off head; do b=./benchmarks/bench_potrf; e=""; [ $v = head ] && b=build/ab/bench_potrf_head; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 400 env $e $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
run racecheck_sL --limit 470 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
grep -m3 -E "Race reported|and (Read|Write)" $R/racecheck_sL.log | cut -c1-200
run memcheck_dU --limit 520 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000 --uplo U --variant tiled --niter 1
finish
