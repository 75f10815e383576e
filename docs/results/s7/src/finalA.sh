#!/bin/bash
# session 7, final call A: the final code; make test, sanitizers on the A*D^2*A^T kernel, A*D^2*A^T bench (d all RFP, s)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
R=$OUT/fa; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in dsyrk_diag ssyrk_diag; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --quick > /tmp/mc_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -E '^SUMMARY' /tmp/mc_$t.log) $(grep -E 'ERROR SUMMARY' /tmp/mc_$t.log)"; cat /tmp/mc_$t.log >> $R/memcheck.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dsyrk_diag --quick > $R/racecheck_dsyrk_diag.log 2>&1
echo "racecheck dsyrk_diag rc=$? $(grep -E '^SUMMARY' $R/racecheck_dsyrk_diag.log) $(grep -E 'RACECHECK SUMMARY' $R/racecheck_dsyrk_diag.log)"
echo "sanitize t=$((SECONDS-S))"
./benchmarks/bench_syrk_diag --prec d --all-rfp --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
./benchmarks/bench_syrk_diag --prec s --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
echo "== syrk_diag t=$((SECONDS-S))"; grep -vE '^#|^$' $R/bench_syrk_diag.log $R/bench_syrk_diag_s.log | cut -c1-150
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/finalA.tgz -C $OUT fa && rm -rf $R
echo "done t=$((SECONDS-S))"
