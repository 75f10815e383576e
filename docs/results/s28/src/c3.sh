#!/bin/bash
# session 28, call 3: the tree with single's helper (c1's form): every GPU tester of make test,
# full suites; memcheck of the quick spotrf, dpotrf and wls suites beside them; racecheck of the
# tiled kernel, s L / s U / d L, n = 1000; bitcmp on / off once more.
source docs/results/call_common.sh c3 all
gpu_suite 470 spotrf dpotrf wls
for c in "s L" "s U" "d L"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
run bitcmp_on --limit 575 ./build/bitcmp28; run bitcmp_off --limit 590 env GCHOL_TILED_HELPER=0 ./build/bitcmp28
echo "bitcmp on vs off: defined part differs in $(diff <(cut -d' ' -f1-6 $R/bitcmp_on.log) <(cut -d' ' -f1-6 $R/bitcmp_off.log) | grep -c '^<') of $(wc -l < $R/bitcmp_on.log), whole in $(diff $R/bitcmp_on.log $R/bitcmp_off.log | grep -c '^<')"
finish
