#!/bin/bash
# session 10, call 4: the tiled kernel's tile products in single precision on the TF32 tensor cores (3xTF32) instead of FFMA: spotrf suite, memcheck of the quick suite, accuracy tables (3xTF32 and FFMA builds), A/B timings at 1024-6144 L/U (interleaved), spftrf quick suite
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./testing/testing_spotrf --suite > $R/suite_spotrf.log 2>&1; echo "suite spotrf: $(grep SUMMARY $R/suite_spotrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_spotrf.log | head -5
./testing/testing_spftrf --suite --quick > $R/quick_spftrf.log 2>&1; echo "quick spftrf: $(grep SUMMARY $R/quick_spftrf.log)"
for u in L U; do
  ./testing/testing_spotrf -n 512,1000,2048,4096,6000 --uplo $u --variant tiled --check --niter 1 > $R/table_tf32_$u.log 2>&1
  ./scratch/s10/testing_spotrf_fma -n 512,1000,2048,4096,6000 --uplo $u --variant tiled --check --niter 1 > $R/table_fma_$u.log 2>&1
  echo "== $u: n |L-Lref| resid (tf32 | fma)"; paste <(grep -E '^ +[0-9]' $R/table_tf32_$u.log | awk '{print $1, $7, $8, $NF}') <(grep -E '^ +[0-9]' $R/table_fma_$u.log | awk '{print $7, $8, $NF}')
done
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log) t=$((SECONDS-S))"
N=1024,2048,3072,4096,5120,6144
for r in 1 2; do for v in tf32 fma; do
  b=./benchmarks/bench_potrf; [ $v = fma ] && b=./scratch/s10/bench_potrf_fma
  $b -n $N --prec s --uplo LU --niter 7 --csv $R/ab_${v}_$r.csv > $R/ab_${v}_$r.log 2>&1
  echo "== $v run $r"; grep -E '^ *s +[0-9]+ [LU] ' $R/ab_${v}_$r.log | awk '{printf "%s %s %s/%s=%s\n", $2,$3,$9,$12,$15}' | paste - - - - - - 
done; done
echo "t=$((SECONDS-S))"
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
