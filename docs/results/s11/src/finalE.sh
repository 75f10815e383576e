#!/bin/bash
# session 11, final call E: the final tree (double's tiled switch at 5376, one block per SM up to 5376): make test; auto d/s L/U at 4608-6144 against cuSOLVER
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalE; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./benchmarks/bench_potrf -n 4096,4608,5120,5375,5376,6144 --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_mid.csv > $R/bench_mid.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_mid.log | awk '{printf "%s %s %s %s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}' | paste - - - -; echo "bench t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalE.tgz -C $OUT finalE && rm -rf $R
