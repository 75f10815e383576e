#!/bin/bash
# session 27, call 16: the final tree (the helper in both precisions: single's as in c15): every GPU
# tester of make test, full suites; memcheck of the quick dpotrf, spotrf and wls suites beside them;
# racecheck of the tiled kernel with the helper (d L, d U, s L, s U at 1000).
source docs/results/call_common.sh c16 all
gpu_suite 470 dpotrf spotrf wls
for c in "d L" "d U" "s L" "s U"; do set -- $c
  run racecheck_$1$2 --limit 590 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
