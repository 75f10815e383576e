#!/bin/bash
# session 8, final call 3: the final code. make test; memcheck and racecheck of the spotrf update path; potrf sweep; pftrf; A*D^2*A^T single
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in spotrf ssyrk_diag; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"
done
for u in L U; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo $u --variant left --lookahead on --nb 1024 --recnb 512 --niter 1 > /tmp/rc.log 2>&1
  echo "racecheck spotrf 2500 $u: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok, $(grep -cE 'FAILED' /tmp/rc.log) FAILED | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck_spotrf.log
done; echo "sanitizers t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
for p in s d; do
./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --form auto --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-120
done
./benchmarks/bench_syrk_diag --prec s --runs 7 --csv $R/syrk_diag_s.csv > $R/bench_syrk_diag_s.log 2>&1
grep -vE '^#|^$' $R/bench_syrk_diag_s.log | cut -c1-150; echo "done t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final3.tgz -C $OUT final3 && rm -rf $R
