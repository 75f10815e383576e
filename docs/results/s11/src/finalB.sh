#!/bin/bash
# session 11, final call B: the final tree's benchmarks in one run: the potrf sweep (both precisions and triangles, 1024-40960, cuSOLVER in the same process); pftrf at 16384 / 32768 (all four RFP variants, both precisions); issue 4's A D^2 A^T rows (bench_syrk_diag, both precisions); then racecheck of the tiled kernel
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalB; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_potrf -n 1024,2048,4096,6144,7168,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste - - - -; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
for p in s d; do
  ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --form auto --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
  echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-100
done
for p in s d; do
  ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 9 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-170; echo "syrk $p t=$((SECONDS-S))"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $R/gpu.txt
for c in "dpotrf L 1000" "spotrf U 1000" "spotrf L 6000"; do set -- $c
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1 -n $3 --uplo $2 --variant tiled --niter 1 > $R/racecheck_$1_$2_$3.log 2>&1; echo "racecheck $c: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_$1_$2_$3.log) t=$((SECONDS-S))"
done
timeout 100 compute-sanitizer --tool synccheck --error-exitcode 1 ./testing/testing_dpotrf -n 1000,4000 --uplo U --variant tiled --niter 1 > $R/synccheck_dpotrf.log 2>&1; echo "synccheck dpotrf U tiled: rc=$? $(grep -E 'ERROR SUMMARY' $R/synccheck_dpotrf.log)"
timeout 100 compute-sanitizer --tool synccheck --error-exitcode 1 ./testing/testing_spotrf -n 3000 --variant left --nb 1024 --recnb 1024 --niter 1 > $R/synccheck_spotrf_panel.log 2>&1; echo "synccheck spotrf panels: rc=$? $(grep -E 'ERROR SUMMARY' $R/synccheck_spotrf_panel.log)"
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/finalB.tgz -C $OUT finalB && rm -rf $R
