#!/bin/bash
# session 7, call 8: one cp.async main loop for both precisions (single had loaded through registers)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_syrk_diag --prec s --all-rfp --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
./benchmarks/bench_syrk_diag --prec d --csv $R/syrk_diag_d.csv > $R/bench_syrk_diag_d.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag_s.log $R/bench_syrk_diag_d.log | cut -c1-150; echo "bench t=$((SECONDS-S))"
for t in ssyrk_diag dsyrk_diag; do timeout 120 ./testing/testing_$t --suite > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3; done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_ssyrk_diag --quick > $R/memcheck_s.log 2>&1; echo "memcheck s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_s.log)"
for args in "-m 129,300 -n 513,1000" "-m 300 -n 513 --rfp T --uplo U" "-m 257 -n 40 --d I --beta 1" "-m 64 -n 20000"; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_ssyrk_diag $args --niter 1 > /tmp/rc.log 2>&1
  echo "racecheck ssyrk_diag $args: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck_s.log
done
echo "done t=$((SECONDS-S))"
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
