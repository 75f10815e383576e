#!/bin/bash
# session 27, call 15: single's chain block sends U(k) after potf2, whole, instead of row by row from
# inside it. Quick suites; chainprof; single and double tiled sizes on / off, alternating, two
# rounds; racecheck s L and s U, memcheck s L.
source docs/results/call_common.sh c15 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 200 ./build/chainprof27
grep -E "helper profile" $R/chainprof.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-300 | grep "^s" | head -4
for r in 1 2; do for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 400 env $e ./benchmarks/bench_potrf -n 1024,1025,2048,3072,4096,6144 --prec s --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for u in L U; do run racecheck_s$u --limit 500 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo $u --variant tiled --niter 1; done
run memcheck_sL --limit 540 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
finish
