#!/bin/bash
# session 6, final call: the final tree's suite, memcheck, sweep, pftrf, A*D^2*A^T, host interface
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; git log --oneline -1 2>/dev/null
R=$OUT/r; mkdir -p $R
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
for t in dpotrf spotrf; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > /tmp/mc_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -E '^SUMMARY' /tmp/mc_$t.log) $(grep -E 'ERROR SUMMARY' /tmp/mc_$t.log)"; cat /tmp/mc_$t.log >> $R/memcheck.log
done
for t in dpftrf spftrf; do
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --quick > /tmp/mc_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -E '^SUMMARY' /tmp/mc_$t.log) $(grep -E 'ERROR SUMMARY' /tmp/mc_$t.log)"; cat /tmp/mc_$t.log >> $R/memcheck.log
done
echo "memcheck t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-110
./benchmarks/bench_pftrf --sizes 16384,32768 --prec s --all-rfp --form auto --csv $R/pftrf_s.csv > $R/pftrf_s.log 2>&1
echo "== pftrf s t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_s.log | cut -c1-110
./benchmarks/bench_syrk_diag --prec d --all-rfp --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
echo "== syrk_diag t=$((SECONDS-S))"; grep -vE '^#|^$' $R/bench_syrk_diag.log | cut -c1-150
./benchmarks/bench_potrf -n 8192,16384 --prec ds --uplo LU --variant auto --host --niter 5 --csv $R/host.csv > $R/host.log 2>&1
echo "== host t=$((SECONDS-S))"; grep -E '^ *[ds] +[0-9]+ [LU] host' $R/host.log | awk '{printf "%s%s%s %s\n", $1,$2,$3,$9}'
cp testing/logs/*.log $R/ 2>/dev/null
tar czf $OUT/final.tgz -C $OUT r && rm -rf $R
echo "done t=$((SECONDS-S))"
