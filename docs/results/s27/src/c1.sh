#!/bin/bash
# session 27, call 1: the chain block's helper (a cluster of two blocks; GCHOL_TILED_HELPER=0 turns it
# off in the same binary). Quick dpotrf / spotrf suites with and without it; the helper's chain-step
# profile (build/chainprof27); tiled sizes and the blocked driver's panels, helper on / off / HEAD,
# two rounds; racecheck and memcheck of the tiled kernel with the helper.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 200 ./build/chainprof27
grep -E "helper profile|relerr" $R/chainprof.log | head -12
for r in 1 2; do for v in on off head; do b=./benchmarks/bench_potrf; e=""; [ $v = head ] && b=build/ab/bench_potrf_head; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 330 env $e $b -n 1024,1025,2048,4096,6144 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run big_$v --limit 400 env $e ./benchmarks/bench_potrf -n 8192,16384 --prec ds --uplo L --niter 3
  echo "$v: $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/big_$v.log | awk '{printf "%s%s%s %s %s/%s=%s  ", $1,$2,$3,$4,$9,$12,$15}')"
done
run racecheck_sL --limit 470 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
run memcheck_dU --limit 520 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000 --uplo U --variant tiled --niter 1
finish
