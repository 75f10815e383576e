#!/bin/bash
# session 28, call 13: c12 with W's elements of the chain block's tiles sent by the helper after U(k) arrives (c12: fetched by the chain block, whose wait for that tile's flag held its stores ~1.2 us); the chain block takes
# the tiles of rows 0-31 and of rows 32-47 left of column 32, with X's rows 0-47 sent to it; the
# helper the other ten; each tile's sums as lower_product_sub's). bitcmp on / off; quick suites;
# chainprof; the c8 tree's bench_potrf (build/ab/bench_potrf_c8) against this tree's, single
# tiled, alternating, three rounds; racecheck s L / s U; memcheck s L.
source docs/results/call_common.sh c13 lib benchmarks/bench_potrf testing/testing_spotrf testing/testing_dpotrf
run bitcmp_on --limit 120 ./build/bitcmp28; run bitcmp_off --limit 200 env GCHOL_TILED_HELPER=0 ./build/bitcmp28
echo "bitcmp on vs off: defined part differs in $(diff <(cut -d' ' -f1-6 $R/bitcmp_on.log) <(cut -d' ' -f1-6 $R/bitcmp_off.log) | grep -c '^<') of $(wc -l < $R/bitcmp_on.log), whole in $(diff $R/bitcmp_on.log $R/bitcmp_off.log | grep -c '^<')"
for p in s d; do run testing_${p}potrf_quick --limit 300 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 320 ./build/chainprof28
grep -E "helper profile" $R/chainprof.log | grep "^s" | cut -c1-330
for r in 1 2 3; do for v in c8 new; do b=./benchmarks/bench_potrf; [ $v = c8 ] && b=./build/ab/bench_potrf_c8
  run ab_${v}_$r --limit 480 $b -n 1024,1025,2048,3072,4096,8192 --prec s --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for u in L U; do run racecheck_s$u --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo $u --variant tiled --niter 1; done
run memcheck_sL --limit 590 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo L --variant tiled --niter 1
finish
