#!/bin/bash
# session 10, call 10: 3xTF32 tile products with 8-byte operand pairs for column-major operands too (rows 2g, 2g+1 as slots g, g+8) against the previous commit (prev: k pairs, scalar loads for column-major); tiled L/U 1024-8192 two rounds; left 1024/1024 at 6144-9216 for the switch; spotrf suite, memcheck quick, accuracy tables
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=1024,2048,3072,4096,5120,6144,7168,7680,8192
for r in 1 2; do for v in new prev; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s10/bench_potrf_$v
  $b -n $N --prec s --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *s +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
./benchmarks/bench_potrf -n 6144,7168,7680,8192,9216 --prec s --uplo LU --variant left --nb 1024 --recnb 1024 --lookahead on --niter 7 --csv $R/left.csv > $R/left.log 2>&1
echo "left $(grep -E '^ *s +[0-9]+ [LU] ' $R/left.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
echo "t=$((SECONDS-S))"
./testing/testing_spotrf --suite > $R/suite_spotrf.log 2>&1; echo "suite spotrf: $(grep SUMMARY $R/suite_spotrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_spotrf.log | head -5
for u in L U; do ./testing/testing_spotrf -n 512,1000,2048,4096,6000,8000 --uplo $u --variant tiled --check --niter 1 > $R/table_$u.log 2>&1; echo "== $u"; grep -E '^ +[0-9]' $R/table_$u.log | awk '{print $1, $7, $8, $NF}' | paste - - - - - -; done
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick > $R/memcheck_spotrf.log 2>&1
echo "memcheck spotrf: rc=$? $(grep SUMMARY $R/memcheck_spotrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spotrf.log) t=$((SECONDS-S))"
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
