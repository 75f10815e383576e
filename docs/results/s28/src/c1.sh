#!/bin/bash
# session 28, call 1: single's helper in the bit-identical form (U(k) sent after potf2, whole, by
# columns as the panel holds it; the helper runs the chain block's own product and update).
# The single factor with the helper against without it, bit for bit (bitcmp28, on / off, diff);
# quick suites; chainprof; single tiled on / off, alternating, two rounds; racecheck s L / s U.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
run bitcmp_on --limit 120 ./build/bitcmp28
run bitcmp_off --limit 200 env GCHOL_TILED_HELPER=0 ./build/bitcmp28
echo "bitcmp: $(wc -l < $R/bitcmp_on.log) / $(wc -l < $R/bitcmp_off.log) lines, differing: $(diff $R/bitcmp_on.log $R/bitcmp_off.log | grep -c '^<')"
diff $R/bitcmp_on.log $R/bitcmp_off.log | head -8
for p in d s; do run testing_${p}potrf_quick --limit 300 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 330 ./build/chainprof28
grep -E "helper profile|chain alone" $R/chainprof.log | cut -c1-260 | grep "^s" | head -4
for r in 1 2; do for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run ab_${v}_$r --limit 470 env $e ./benchmarks/bench_potrf -n 1024,1025,2048,3072,4096,6144 --prec s --uplo LU --variant tiled --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for u in L U; do run racecheck_s$u --limit 580 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1000 --uplo $u --variant tiled --niter 1; done
finish
