#!/bin/bash
# session 10, call 11: the host interface (pageable, staged) in single at 5120-8191 after the switch moved to 8192: auto (tiled: transfers before and after) against left 1024/1024 with lookahead (transfers beside the factorization), two rounds, median of 5
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c11; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
N=5120,6144,7168,8191
for r in 1 2; do
  ./benchmarks/bench_potrf -n $N --prec s --uplo LU --variant auto --host --niter 5 --csv $R/auto_$r.csv > $R/auto_$r.log 2>&1
  echo "auto.$r $(grep -E '^ *s +[0-9]+ [LU] +host' $R/auto_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
  ./benchmarks/bench_potrf -n $N --prec s --uplo LU --variant left --nb 1024 --recnb 1024 --lookahead on --host --niter 5 --csv $R/left_$r.csv > $R/left_$r.log 2>&1
  echo "left.$r $(grep -E '^ *s +[0-9]+ [LU] +host' $R/left_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done
grep -E '^ *s ' $R/auto_1.log | head -4
echo "t=$((SECONDS-S))"
tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
