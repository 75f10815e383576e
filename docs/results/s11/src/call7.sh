#!/bin/bash
# session 11, call 7: the chain block fetches the next step's P and W into registers right after the barrier before its publish (two pollers, one round trip), against the committed kernel (head); tiled d/s L/U 1024-6144, auto d L/U 8192-16384; d and s suites
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for r in 1 2; do for v in new head; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s11/bench_potrf_head
  $b -n 1024,2048,4096,6144 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for r in 1 2; do for v in new head; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s11/bench_potrf_head
  $b -n 8192,12288,16384 --prec d --uplo LU --niter 5 --csv $R/auto_${v}_$r.csv > $R/auto_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for p in d s; do ./testing/testing_${p}potrf --suite > $R/suite_${p}potrf.log 2>&1; echo "suite ${p}potrf: $(grep SUMMARY $R/suite_${p}potrf.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}potrf.log | head -5; done
rm -f $R/build.log
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
