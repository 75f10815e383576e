#!/bin/bash
# session 27, call 14: single's helper sends W - X X^T from the DMMA accumulators (ChunkedLowerProduct)
# instead of the update in shared memory and a send loop. Quick suites; chainprof;
# single and double tiled sizes on / off, alternating, three rounds; racecheck s L, memcheck s U.
source docs/results/call_common.sh c14 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 200 ./build/chainprof27
grep -E "helper profile" $R/chainprof.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-300 | head -8
for r in 1 2 3; do for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 400 env $e ./benchmarks/bench_potrf -n 1024,1025,2048,3072,4096 --prec sd --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
run racecheck_sL --limit 500 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
run memcheck_sU --limit 540 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo U --variant tiled --niter 1
finish
