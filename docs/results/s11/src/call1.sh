#!/bin/bash
# session 11, call 1: double lower 8192-16384: the last term of the left-looking update on the DMMA syrk kernel (trapezoid, one launch) against cuBLAS dsyrk + dgemm, two rounds; nb / recnb around the automatic table; correctness of the variant
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
gcc -O2 -std=c11 -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D -DGCHOL_D_LAST_TERM_DMMA -c src/potrf_driver.c -o /tmp/pd_lt.o
gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pd_lt.o $LIBS -o /tmp/bench_lt || exit 1
gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include testing/testing_potrf.c testing/testing_common.c -DGCHOL_PREC_D /tmp/pd_lt.o $LIBS -o /tmp/testing_dpotrf_lt || echo "no lt tester"
echo "build t=$((SECONDS-S))"
N=8192,12288,16384
for r in 1 2; do for v in base lt; do
  b=./benchmarks/bench_potrf; [ $v = lt ] && b=/tmp/bench_lt
  $b -n $N --prec d --uplo L --niter 5 --csv $R/${v}_$r.csv > $R/${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *d +[0-9]+ [LU] ' $R/${v}_$r.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for cfg in 512/512 768/768 1536/768 2048/1024; do nb=${cfg%/*}; rn=${cfg#*/}
  ./benchmarks/bench_potrf -n 8192 --prec d --uplo L --variant left --lookahead on --nb $nb --recnb $rn --niter 5 > $R/nb8192_$nb_$rn.log 2>&1
  echo "8192 $cfg $(grep -E '^ *d +[0-9]+ [LU] ' $R/nb8192_$nb_$rn.log | awk '{printf "%s %s  ", $9,$15}')"
done
for cfg in 1024/1024 1536/512 2048/512 2048/1024; do nb=${cfg%/*}; rn=${cfg#*/}
  ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --variant left --lookahead on --nb $nb --recnb $rn --niter 5 > $R/nb_$nb_$rn.log 2>&1
  echo "12288,16384 $cfg $(grep -E '^ *d +[0-9]+ [LU] ' $R/nb_$nb_$rn.log | awk '{printf "%s %s  ", $9,$15}')"
done
echo "t=$((SECONDS-S))"
[ -x /tmp/testing_dpotrf_lt ] && /tmp/testing_dpotrf_lt -n 6000,8192,10001,12288 --variant left --lookahead on --check --niter 1 > $R/lt_check.log 2>&1; tail -8 $R/lt_check.log
echo "t=$((SECONDS-S))"
rm -f $R/build.log
