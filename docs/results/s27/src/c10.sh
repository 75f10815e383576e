#!/bin/bash
# session 27, call 10: the final tree (the chain block's helper in double): every GPU tester of
# make test, full suites; memcheck of the quick dpotrf, dhost_bounds and wls suites beside them;
# racecheck of the tiled kernel with the helper (double L and U, n = 1000) and without (single L).
source docs/results/call_common.sh c10 all
gpu_suite 470 dpotrf dhost_bounds wls
for c in "d L" "d U" "s L"; do set -- $c
  run racecheck_$1$2 --limit 590 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
