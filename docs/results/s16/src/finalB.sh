#!/bin/bash
# session 16, final call B (the tree after final A: the two losers removed; quick potrf suites first): the issue-3 sweep (both precisions and triangles,
# 1024-40960 with 4608 / 5120 and 36864 (where the wide-tile dgemm starts), cuSOLVER in the same process, GEMM ceiling at
# 8192, dgemm / sgemm at 16384 apart); pftrf (issue 4) at 16384 / 32768, all four RFP variants.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalB; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in d s; do timeout 60 ./testing/testing_${p}potrf --suite --quick > $R/quick_${p}potrf.log 2>&1; echo "${p}potrf --suite --quick rc=$? $(tail -1 $R/quick_${p}potrf.log) t=$((SECONDS-S))"; done
./benchmarks/bench_potrf -n 1024,2048,4096,4608,5120,6144,7168,8191,8192,8193,12288,16384,24576,32768,36864,40960 --prec ds \
   --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste - - - -; grep -i "ceiling" $R/bench_sweep.log | head -2; echo "sweep t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 1024 --prec ds --uplo L --variant auto --niter 5 --gemm-n 16384 > $R/gemm16384.log 2>&1; grep -i "ceiling" $R/gemm16384.log
for p in s d; do
  timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --form auto --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
  echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-100
done
for p in d s; do
  ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  echo "== syrk_diag $p t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-150
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $R/gpu.txt
rm -f $R/build.log
tar czf $OUT/finalB.tgz -C $OUT finalB && rm -rf $R
