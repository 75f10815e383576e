#!/bin/bash
# session 29, call 7: the sanitizer tools not run on the tiled kernel since it got its cluster
# helper (s27, s28): synccheck and initcheck. The tiled kernel whole (n = 1000, s and d, L and U)
# and in panel mode (left-looking, n = 5000, nb 1024 / recnb 512: tiled panels of 512 columns);
# initcheck also over the quick dpotrf, spotrf and dsposv suites.
source docs/results/call_common.sh c7 testing/testing_dpotrf testing/testing_spotrf testing/testing_dsposv
SAN="compute-sanitizer --error-exitcode 1"
for c in "s L" "s U" "d L" "d U"; do set -- $c
  run synccheck_$1$2 --limit 500 $SAN --tool synccheck ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1 --check
  run initcheck_$1$2 --limit 500 $SAN --tool initcheck ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1 --check
done
for p in d s; do
  run synccheck_panel_$p --limit 500 $SAN --tool synccheck ./testing/testing_${p}potrf -n 5000 --uplo L --variant left --nb 1024 --recnb 512 --niter 1 --check
  run initcheck_panel_$p --limit 500 $SAN --tool initcheck ./testing/testing_${p}potrf -n 5000 --uplo L --variant left --nb 1024 --recnb 512 --niter 1 --check
done
for t in dpotrf spotrf dsposv; do
  run initcheck_quick_$t --limit 560 $SAN --tool initcheck ./testing/testing_$t --suite --quick
done
for f in $R/*check*.log; do echo "$(basename $f .log): $(grep -E 'ERROR SUMMARY|SYNCCHECK|INITCHECK' $f | tail -1) $(grep -cE ' ok$| ok ' $f) ok, $(grep -c FAILED $f) FAILED, $(tail -1 $f)"; done
finish
