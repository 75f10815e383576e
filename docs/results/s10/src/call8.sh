#!/bin/bash
# session 10, call 8: single upper, the workers' update with both operands row-major on 3xTF32 through 8-byte loads of k pairs and permuted rows (base) against v6 (that update on FFMA) and fma (FFMA everywhere); spotrf suite and memcheck quick
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=1024,2048,3072,4096,5120
for r in 1 2; do for v in base v6 fma; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=./scratch/s10/bench_potrf_$v
  $b -n $N --prec s --uplo LU --niter 7 --csv $R/ab_${v}_$r.csv > $R/ab_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/ab_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
echo "t=$((SECONDS-S))"
./testing/testing_spotrf --suite > $R/suite_spotrf.log 2>&1; echo "suite spotrf: $(grep SUMMARY $R/suite_spotrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_spotrf.log | head -5
for u in L U; do ./testing/testing_spotrf -n 512,1000,2048,4096,6000 --uplo $u --variant tiled --check --niter 1 > $R/table_$u.log 2>&1; echo "== $u"; grep -E '^ +[0-9]' $R/table_$u.log | awk '{print $1, $7, $8, $NF}' | paste - - - - -; done
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log) t=$((SECONDS-S))"
tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
