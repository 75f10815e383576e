#!/bin/bash
# session 9, call 6: swap kernel with static shared memory (checks, GB/s, quick suite); A/B: double lower's left-looking updates on gchol's DMMA syrk kernel (trapezoid mode) instead of cuBLAS syrk+gemm: dm1 bulk, dm2 last term, dm3 both
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./scratch/s9/swapbench2 > $R/swapbench2.log 2>&1; grep -E "checks|n=8192 lda=n\+0|n=32768 lda=n\+0" $R/swapbench2.log
./testing/testing_spotrf --suite --quick > $R/quick_s.log 2>&1; echo "quick s: $(grep SUMMARY $R/quick_s.log)"
./scratch/s9/testing_dpotrf_dm3 --suite --quick > $R/quick_dm3.log 2>&1; echo "quick dm3: $(grep SUMMARY $R/quick_dm3.log)"
./scratch/s9/testing_dpotrf_dm3 -n 2500,5000,9000 --variant left --lookahead on --nb 1024 --recnb 512 --check > $R/table_dm3.log 2>&1; grep -E "^ +[0-9]" $R/table_dm3.log
N=4608,6144,8192,12288,16384,32768
for v in base dm1 dm2 dm3; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=./scratch/s9/bench_potrf_$v
  $b -n $N --prec d --uplo L --niter 5 --csv $R/ab_$v.csv > $R/ab_$v.log 2>&1
  echo "== $v"; grep -E '^ *d +[0-9]+ L ' $R/ab_$v.log | awk '{printf "%s %s %s/%s=%s\n", $2,$3,$9,$12,$15}'
done
echo "done t=$((SECONDS-S))"
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
