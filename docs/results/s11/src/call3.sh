#!/bin/bash
# session 11, call 3: left-looking with the panel stream on the diagonal blocks only (tiled kernel, jb x jb), the rows below solved on the main stream (1: cuBLAS trsm, 2: gchol's recursive trsm) and one gemm per block column; against the current split lookahead with tiled panels; double L/U, single L; suite of the variant
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
CF="-O2 -std=c11 -fPIC -Iinclude -Isrc -Ibenchmarks -Itesting -I/usr/local/cuda/include"
for v in 1 2; do
  gcc $CF -DGCHOL_PREC_D -DGCHOL_DIAG_PANEL=$v -c src/potrf_driver.c -o /tmp/pdD$v.o
  gcc $CF -DGCHOL_PREC_S -DGCHOL_DIAG_PANEL=$v -c src/potrf_driver.c -o /tmp/pdS$v.o
  gcc $CF benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pdD$v.o /tmp/pdS$v.o $LIBS -o /tmp/bench_diag$v || exit 1
done
gcc $CF -DGCHOL_PREC_D testing/testing_potrf.c testing/testing_common.c /tmp/pdD1.o $LIBS -o /tmp/testing_dpotrf_diag1 || exit 1
echo "build t=$((SECONDS-S))"
N=4096,6144,8192,12288,16384
for r in 1 2; do for v in base diag1 diag2; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=/tmp/bench_$v
  $b -n $N --prec d --uplo LU --variant left --lookahead on --niter 5 --csv $R/${v}_d_$r.csv > $R/${v}_d_$r.log 2>&1
  echo "$v.d.$r $(grep -E '^ *d +[0-9]+ [LU] ' $R/${v}_d_$r.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
for v in base diag1; do
  b=./benchmarks/bench_potrf; [ $v != base ] && b=/tmp/bench_$v
  $b -n 8192,12288,16384 --prec s --uplo L --variant left --lookahead on --niter 5 --csv $R/${v}_s.csv > $R/${v}_s.log 2>&1
  echo "$v.s $(grep -E '^ *s +[0-9]+ [LU] ' $R/${v}_s.log | awk '{printf "%s%s %s %s  ", $2,$3,$9,$15}')"
done
echo "t=$((SECONDS-S))"
/tmp/testing_dpotrf_diag1 --suite > $R/suite_diag1.log 2>&1; echo "suite d diag1: $(grep SUMMARY $R/suite_diag1.log) t=$((SECONDS-S))"; grep FAIL $R/suite_diag1.log | head -5
rm -f $R/build.log
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
