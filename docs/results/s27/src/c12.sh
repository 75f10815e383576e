#!/bin/bash
# session 27, call 12: the final tree (c11's kernels with send_row8 no longer a template: the same
# code): every GPU tester of make test, full suites; memcheck of the quick dpotrf, dhost_bounds and
# wls suites beside them; racecheck of the tiled kernel (d L / d U with the helper, s L); single
# lower 1023-1025 again, two rounds (c11's sweep had 1025 at +11.5% over 1024).
source docs/results/call_common.sh c12 all
gpu_suite 470 dpotrf dhost_bounds wls
for c in "d L" "d U" "s L"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
for r in 1 2; do
  run s1025_$r --limit 590 ./benchmarks/bench_potrf -n 1023,1024,1025 --prec s --uplo L --variant auto --niter 7
  echo "$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/s1025_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done
finish
