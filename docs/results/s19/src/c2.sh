#!/bin/bash
# session 19, call 2: first GPU run of the weighted least-squares drivers (wls.c, dswls.c) and
# their kernels: testing_wls --suite, memcheck of its quick suite, testing_host (mixed_prec.cu's
# merged reductions against LAPACKE_dlansy), testing_dsposv --suite, the quick ssyrk_diag suite
# (syrk_diag.cu's dispatch changed), then bench_wls against cuBLAS + cuSOLVER.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 150 ./testing/testing_wls --suite > $R/testing_wls.log 2>&1; echo "wls --suite rc=$? $(tail -1 $R/testing_wls.log) t=$((SECONDS-S))"
grep -E "FAILED" $R/testing_wls.log | head -20
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"; grep FAILED $R/testing_host.log | head -5
timeout 100 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
timeout 60 ./testing/testing_ssyrk_diag --suite --quick > $R/quick_ssyrk_diag.log 2>&1; echo "ssyrk_diag quick rc=$? $(tail -1 $R/quick_ssyrk_diag.log) t=$((SECONDS-S))"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_wls --suite --quick > $R/memcheck_wls.log 2>&1
echo "memcheck wls quick: rc=$? $(grep SUMMARY $R/memcheck_wls.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_wls.log) t=$((SECONDS-S))"
timeout $((570-SECONDS)) ./benchmarks/bench_wls --mn 1024x65536,4096x65536,8192x32768,16384x32768,16384x16384 --niter 3 --csv $R/bench_wls.csv > $R/bench_wls.log 2>&1
echo "bench_wls rc=$? t=$((SECONDS-S))"; grep -vE '^#' $R/bench_wls.log | grep -v '^$' | cut -c1-220
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
