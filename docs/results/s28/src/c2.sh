#!/bin/bash
# session 28, call 2: single's helper sends W(k+1) by columns, 16 bytes per store, after
# lower_product_sub in its own shared memory (c1 sent it element by element from the
# accumulators). bitcmp (defined part and whole) on / off, two runs each; quick suites; chainprof
# of this form (chainprof28) and c1's (chainprof28s, -DGCHOL_HELPER_W_SCALAR); single tiled on / off,
# alternating, two rounds; racecheck s L / s U.
source docs/results/call_common.sh c2 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for r in 1 2; do run bitcmp_on_$r --limit 120 ./build/bitcmp28; run bitcmp_off_$r --limit 200 env GCHOL_TILED_HELPER=0 ./build/bitcmp28; done
for f in on_2 off_1 off_2; do
  echo "bitcmp on_1 vs $f: defined part differs in $(diff <(cut -d' ' -f1-6 $R/bitcmp_on_1.log) <(cut -d' ' -f1-6 $R/bitcmp_$f.log) | grep -c '^<') of $(wc -l < $R/bitcmp_on_1.log), whole in $(diff $R/bitcmp_on_1.log $R/bitcmp_$f.log | grep -c '^<')"; done
for p in d s; do run testing_${p}potrf_quick --limit 300 ./testing/testing_${p}potrf --suite --quick; done
for v in 28 28s; do run chainprof$v --limit 330 ./build/chainprof$v
  grep -E "helper profile" $R/chainprof$v.log | grep "^s" | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-60; done
for r in 1 2; do for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 470 env $e ./benchmarks/bench_potrf -n 1024,1025,2048,3072,4096,6144 --prec s --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for u in L U; do run racecheck_s$u --limit 580 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo $u --variant tiled --niter 1; done
finish
