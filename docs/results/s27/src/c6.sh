#!/bin/bash
# session 27, call 6: when do U's columns reach the helper (chainprof stamps of each chunk's barrier
# as the helper's thread 0 sees it complete); single's products on DMMA again (chainprof27TF32: on
# 3xTF32); tiled sizes on / off, quick suites.
source docs/results/call_common.sh c6 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
for v in "" TF32; do
  run chainprof$v --limit 200 ./build/chainprof27$v
  grep -E "helper profile|seen by" $R/chainprof$v.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-260 | head -8
done
for r in 1 2; do for v in on off; do b=./benchmarks/bench_potrf; e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 400 env $e $b -n 1024,2048,4096 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
finish
