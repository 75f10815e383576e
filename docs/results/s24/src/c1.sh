#!/bin/bash
# session 24, call 1: double A*D^2*A^T with the pipelined main loop (one barrier per stage before
# its last k-step, copies two stages ahead, d applied to B's fragments in registers) against the
# old loop (GCHOL_SYRK_DMMA_PIPE=0), two rounds, alternating; testing_dsyrk_diag --suite with the
# new loop; memcheck and racecheck of its quick suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
make -j16 lib testing/testing_dsyrk_diag benchmarks/bench_syrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./testing/testing_dsyrk_diag --suite > $R/dsyrk_diag_suite.log 2>&1
echo "== dsyrk_diag suite rc=$? t=$((SECONDS-S)): $(tail -1 $R/dsyrk_diag_suite.log)"; grep -E "FAILED" $R/dsyrk_diag_suite.log | head -5
for r in 1 2; do
  for ab in 0 1; do
    GCHOL_SYRK_DMMA_PIPE=$ab timeout $((500-SECONDS)) ./benchmarks/bench_syrk_diag --prec d --runs 5 > $R/bench_pipe${ab}_$r.log 2>&1
    echo "== pipe=$ab round $r rc=$? t=$((SECONDS-S))"; grep -vE '^$|^#' $R/bench_pipe${ab}_$r.log | cut -c1-150
  done
done
for tool in memcheck racecheck; do
  timeout $((590-SECONDS)) compute-sanitizer --tool $tool --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick > $R/${tool}.log 2>&1
  echo "== $tool rc=$? t=$((SECONDS-S)): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}.log | tail -1) / $(grep -E 'passed' $R/${tool}.log | tail -1)"
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
