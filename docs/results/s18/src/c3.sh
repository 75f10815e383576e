#!/bin/bash
# session 18, call 3: first GPU run of potrs / dsposv: testing_dsposv --suite, memcheck of its quick suite,
# testing_host; bench_posv (against cuSOLVER dpotrf + dpotrs and cusolverDnDSgesv) nrhs 1 and 16.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
timeout 150 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
grep -E "FAILED" $R/testing_dsposv.log | head -20
grep -E "dsposv" $R/testing_dsposv.log | awk '{print $1, $4, $5, $6, $7, $8, $9, $10, $11, $12}' | sort | uniq -c | sort -rn | head -5
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/memcheck_dsposv.log 2>&1
echo "memcheck dsposv quick: rc=$? $(grep SUMMARY $R/memcheck_dsposv.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dsposv.log) t=$((SECONDS-S))"
timeout 150 ./benchmarks/bench_posv -n 1024,2048,4096,8192,16384,32768 --nrhs 1 --niter 5 --csv $R/posv_nrhs1.csv > $R/bench_posv_nrhs1.log 2>&1
echo "== bench_posv nrhs 1 rc=$? t=$((SECONDS-S))"; cat $R/bench_posv_nrhs1.log
timeout 60 ./benchmarks/bench_posv -n 4096,16384 --nrhs 16 --uplo U --niter 5 --csv $R/posv_nrhs16U.csv > $R/bench_posv_nrhs16U.log 2>&1
echo "== bench_posv nrhs 16 U rc=$? t=$((SECONDS-S))"; tail -n 3 $R/bench_posv_nrhs16U.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
