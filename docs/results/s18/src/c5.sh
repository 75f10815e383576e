#!/bin/bash
# session 18, call 5: potrs on trsv for one right-hand side, dsposv symv, TF32 products option
# (gchol_dsposv_expert_gpu): testing_host, testing_dsposv --suite (n = 9000 accurate/TF32 cases),
# memcheck of its quick suite, testing_spotrf --suite --quick (default products unchanged),
# bench_posv nrhs 1 (L) and 16 (U) with the TF32 column, posv_phase.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
timeout 150 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
grep -E "FAILED" $R/testing_dsposv.log | head -20; grep -E "n=9000" $R/testing_dsposv.log
timeout 100 ./benchmarks/bench_posv -n 1024,4096,8192,16384,32768 --nrhs 1 --niter 5 --csv $R/posv_nrhs1.csv > $R/bench_posv_nrhs1.log 2>&1
echo "== bench_posv nrhs 1 rc=$? t=$((SECONDS-S))"; cat $R/bench_posv_nrhs1.log
timeout 60 ./benchmarks/bench_posv -n 16384 --nrhs 16 --uplo U --niter 5 --csv $R/posv_nrhs16U.csv > $R/bench_posv_nrhs16U.log 2>&1
echo "== bench_posv nrhs 16 U rc=$? t=$((SECONDS-S))"; tail -n 1 $R/bench_posv_nrhs16U.log
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick > $R/memcheck_dsposv.log 2>&1
echo "memcheck dsposv quick: rc=$? $(grep SUMMARY $R/memcheck_dsposv.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dsposv.log) t=$((SECONDS-S))"
timeout 80 ./testing/testing_spotrf --suite --quick > $R/quick_spotrf.log 2>&1; echo "spotrf --suite --quick rc=$? $(tail -1 $R/quick_spotrf.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
