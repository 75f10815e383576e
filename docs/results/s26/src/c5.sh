#!/bin/bash
# session 26, call 5: the identity written beside the slower warps' products (solve_below) against
# call 3's tree (build/ab/bench_potrf_mem); where a single-precision factorization at 1024 spends
# its time outside the kernel (build/overhead); quick dpotrf / spotrf suites; chainprof; tiled sizes
# both precisions and triangles, two rounds; racecheck s L / d U at 1000.
source docs/results/call_common.sh c5 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
run overhead --limit 60 ./build/overhead; cat $R/overhead.log
for p in d s; do run testing_${p}potrf_quick --limit 200 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 240 ./build/chainprof
grep -E "^(dL|dU|sL|sU) n= 1024" -A2 $R/chainprof.log | grep -E "^[ds][LU]|split|avg" | head -16
for r in 1 2; do for v in idm mem; do b=./benchmarks/bench_potrf; [ $v = mem ] && b=build/ab/bench_potrf_mem
  run ab_${v}_$r --limit 400 $b -n 1024,1536,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 9
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for c in "s L" "d U"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
