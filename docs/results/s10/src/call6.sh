#!/bin/bash
# session 10, call 6: single tiled kernel with 3xTF32 tile products and the chain block outlined in upper too (base): spotrf suite, memcheck quick; A/B against v4 (upper's workers on FFMA), v5 (k pairs for row-major operands too) and fma (FFMA everywhere), two rounds, ms
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=1024,2048,3072,4096,5120
for r in 1 2; do for v in base v4 v5 fma; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=./scratch/s10/bench_potrf_$v
  $b -n $N --prec s --uplo LU --niter 7 --csv $R/ab_${v}_$r.csv > $R/ab_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/ab_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
./testing/testing_spotrf --suite > $R/suite_spotrf.log 2>&1; echo "suite spotrf: $(grep SUMMARY $R/suite_spotrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_spotrf.log | head -5
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log) t=$((SECONDS-S))"
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
