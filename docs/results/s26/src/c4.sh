#!/bin/bash
# session 26, call 4: TileAcc3xTF32 with its three products in three accumulators (independent
# chains) against call 3's tree (build/ab/bench_potrf_mem, commit "P, L(k,k-1) and the workers'
# C in memory order"). Quick spotrf suite; chain-step profile; single tiled sizes both triangles,
# two rounds each; racecheck of single L / U at 1000.
source docs/results/call_common.sh c4 lib benchmarks/bench_potrf testing/testing_spotrf
run testing_spotrf_quick --limit 200 ./testing/testing_spotrf --suite --quick
run chainprof --limit 240 ./build/chainprof
grep -E "^(sL|sU) n= (1024|2048)" -A2 $R/chainprof.log | grep -E "^s[LU]|split|avg" | head -12
for r in 1 2; do for v in acc3 mem; do b=./benchmarks/bench_potrf; [ $v = mem ] && b=build/ab/bench_potrf_mem
  run ab_${v}_$r --limit 400 $b -n 1024,1536,2048,3072,4096,5120,6144,8191 --prec s --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for c in "s U" "s L"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
