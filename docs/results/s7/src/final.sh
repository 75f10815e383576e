#!/bin/bash
# session 7, final call: the final code; make test, sanitizers on the A*D^2*A^T kernel (both precisions),
# A*D^2*A^T bench (interleaved, both precisions, all RFP variants), potrf auto sweep, pftrf both precisions
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
R=$OUT/final; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in dsyrk_diag ssyrk_diag; do
  timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --quick > /tmp/mc_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -E '^SUMMARY' /tmp/mc_$t.log) $(grep -E 'ERROR SUMMARY' /tmp/mc_$t.log)"; cat /tmp/mc_$t.log >> $R/memcheck.log
  for args in "-m 129,300 -n 513,1000" "-m 300 -n 513 --rfp T --uplo U" "-m 257 -n 40 --d I --beta 1" "-m 64 -n 20000"; do
    timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$t $args --niter 1 > /tmp/rc.log 2>&1
    echo "racecheck $t $args: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck.log
  done
done
echo "sanitize t=$((SECONDS-S))"
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 7 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
./benchmarks/bench_syrk_diag --prec s --all-rfp --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
echo "== syrk_diag t=$((SECONDS-S))"; grep -vE '^#|^$' $R/bench_syrk_diag.log $R/bench_syrk_diag_s.log | cut -c1-150 | sed 's|^/root/out/final/||'
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
./benchmarks/bench_pftrf --sizes 16384,32768 --prec ds --all-rfp --form auto --csv $R/pftrf.csv > $R/pftrf.log 2>&1
echo "== pftrf t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf.log | cut -c1-110
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final.tgz -C $OUT final && rm -rf $R
echo "done t=$((SECONDS-S))"
