#!/bin/bash
# session 7, final call B: racecheck of the A*D^2*A^T kernel (table runs), its bench again (9 runs),
# the potrf auto sweep against cuSOLVER, pftrf both precisions
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
R=$OUT/fb; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for args in "-m 129,300 -n 513,1000" "-m 300 -n 513 --rfp T --uplo U" "-m 257 -n 40 --d I --beta 1" "-m 64 -n 20000"; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dsyrk_diag $args --niter 1 > /tmp/rc.log 2>&1
  echo "racecheck dsyrk_diag $args: rc=$? $(grep -cE ' ok' /tmp/rc.log) ok, $(grep -cE 'FAILED' /tmp/rc.log) FAILED | $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)"; cat /tmp/rc.log >> $R/racecheck_dsyrk_diag.log
done
echo "racecheck t=$((SECONDS-S))"
./benchmarks/bench_syrk_diag --prec d --all-rfp --runs 9 --csv $R/syrk_diag.csv > $R/bench_syrk_diag.log 2>&1
echo "== syrk_diag t=$((SECONDS-S))"; grep -vE '^#|^$' $R/bench_syrk_diag.log | cut -c1-150
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-110
./benchmarks/bench_pftrf --sizes 16384,32768 --prec s --all-rfp --form auto --csv $R/pftrf_s.csv > $R/pftrf_s.log 2>&1
echo "== pftrf s t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_s.log | cut -c1-110
tar czf $OUT/finalB.tgz -C $OUT fb && rm -rf $R
echo "done t=$((SECONDS-S))"
