#!/bin/bash
# session 26, call 3: P, L(k, k-1) and the workers' C kept in memory order (upper: row-major,
# contiguous copies and 16-byte stores). Quick dpotrf / spotrf suites; chain-step profile
# (build/chainprof, both triangles); this tree against HEAD (build/ab/bench_potrf_head), tiled
# sizes, both precisions and triangles, two rounds; racecheck of the tiled kernel, upper, n = 1000.
source docs/results/call_common.sh c3 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for p in d s; do run testing_${p}potrf_quick --limit 200 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 240 ./build/chainprof
grep -E "^(dL|dU|sL|sU) n= 1024" -A2 $R/chainprof.log | grep -E "^[ds][LU]|avg" | head -8
for r in 1 2; do for v in new head; do b=./benchmarks/bench_potrf; [ $v = head ] && b=build/ab/bench_potrf_head
  run ab_${v}_$r --limit 400 $b -n 1023,1024,1025,1536,2048,3072,4095,4096,4097,6144 --prec ds --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for c in "s U" "d U" "s L"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
