#!/bin/bash
# session 27, call 9: U sent by the idle warps 4-7 after each inner block (in the working precision), not
# by the row threads inside it. Quick suites; chainprof; tiled sizes on / off, two rounds; the blocked
# driver's panels (8192, 12288, 16384) on / off.
source docs/results/call_common.sh c9 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
run racecheck_sL --limit 200 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
run chainprof --limit 200 ./build/chainprof27
grep -E "helper profile" $R/chainprof.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-300 | head -8
for r in 1 2; do for v in on off; do b=./benchmarks/bench_potrf; e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 400 env $e $b -n 1024,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run big_$v --limit 500 env $e ./benchmarks/bench_potrf -n 6144,8192,12288,16384 --prec ds --uplo L --niter 3
  echo "$v: $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/big_$v.log | awk '{printf "%s%s%s %s %s/%s=%s  ", $1,$2,$3,$4,$9,$12,$15}')"
done
finish
