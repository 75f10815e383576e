#!/bin/bash
# session 7, call 11: the finished tile written out through shared memory (coalesced); bench both precisions, suites, sanitizers
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c11; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag.log $R/bench_syrk_diag_s.log | cut -c1-150 | sed 's|^/root/out/c11/||'; echo "bench t=$((SECONDS-S))"
for t in dsyrk_diag ssyrk_diag; do
  timeout 120 ./testing/testing_$t --suite > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3
  timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --quick > /tmp/mc_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -E '^SUMMARY' /tmp/mc_$t.log) $(grep -E 'ERROR SUMMARY' /tmp/mc_$t.log)"; cat /tmp/mc_$t.log >> $R/memcheck.log
  for args in "-m 129,300 -n 513,1000" "-m 300 -n 513 --rfp T --uplo U" "-m 257 -n 40 --d I --beta 1" "-m 64 -n 20000"; do
    timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$t $args --niter 1 > /tmp/rc.log 2>&1
    echo "racecheck $t $args: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck.log
  done
done
echo "done t=$((SECONDS-S))"
tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
