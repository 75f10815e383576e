#!/bin/bash
# session 22, call 7: the host weighted least squares (gchol_?wls, gchol_?wls_rfp) and the
# syrk_diag host forms moved onto the shared streaming engine (src/host_stream.c):
# testing_wls, d/s syrk_diag full suites, testing_host, memcheck of the quick wls and
# dsyrk_diag suites, then bench_syrk_diag_host (with the wls rows) in double and single.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 lib testing/testing_wls testing/testing_dsyrk_diag testing/testing_ssyrk_diag testing/testing_host benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
export OPENBLAS_NUM_THREADS=4
( run wls ./testing/testing_wls --suite ) &
( run dsyrk_diag ./testing/testing_dsyrk_diag --suite; run host ./testing/testing_host ) &
( run ssyrk_diag ./testing/testing_ssyrk_diag --suite ) &
( run memcheck_wls_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick; run memcheck_dsyrk_diag_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_dsyrk_diag --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" -A1 $R/*.log | head -30
grep -h "host" $R/wls.log | head -60
run bench_host_d ./benchmarks/bench_syrk_diag_host --prec d --runs 3
run bench_host_s ./benchmarks/bench_syrk_diag_host --prec s --runs 3
cat $R/bench_host_d.log $R/bench_host_s.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
