#!/bin/bash
# session 18, call 2 (session 17's final tree): racecheck and memcheck of testing_host (the new long-column
# rotation test, both methods), memcheck of the quick dpftrf suite (pftrs nrhs 1100 kernel leaf, n = 386 pivots);
# the standalone DMMA dgemm probe (docs/results/s18/src/dgemm_probe.cu) against cublasDgemm.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 -o $R/dgemm_probe docs/results/s18/src/dgemm_probe.cu -lcublas > $R/probe_build.log 2>&1 || tail -5 $R/probe_build.log
echo "build t=$((SECONDS-S))"
timeout 150 $R/dgemm_probe > $R/dgemm_probe.log 2>&1; echo "dgemm_probe rc=$? t=$((SECONDS-S))"; tail -n 25 $R/dgemm_probe.log
timeout 90 ./benchmarks/bench_syrk_diag --prec d --runs 5 --csv $R/syrk_diag_d.csv > $R/bench_syrk_diag_d.log 2>&1
echo "== syrk_diag d t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_d.log | grep -v "^# [a-z]" | cut -c1-150
timeout 70 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_host > $R/racecheck_host.log 2>&1
echo "racecheck testing_host: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_host.log) t=$((SECONDS-S))"
timeout 70 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_host > $R/memcheck_host.log 2>&1
echo "memcheck testing_host: rc=$? $(grep SUMMARY $R/memcheck_host.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_host.log) t=$((SECONDS-S))"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpftrf --suite --quick > $R/memcheck_dpftrf.log 2>&1
echo "memcheck dpftrf quick: rc=$? $(grep SUMMARY $R/memcheck_dpftrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dpftrf.log) t=$((SECONDS-S))"
rm -f $R/build.log $R/dgemm_probe; gzip -9 -n $R/*.log
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
