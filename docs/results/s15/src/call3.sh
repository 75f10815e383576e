#!/bin/bash
# session 15, call 3: the lower bulk update's dgemm on cublasLt's 128 x 128 tiles (src/gemm_lt.c).
# (1) correctness: testing_dpotrf / testing_dpftrf --suite built with every non-transposed gemm of the
#     driver through cublasLt (GCHOL_WIDE_TILE_LD=0, _K=0), and memcheck of the quick dpotrf suite;
# (2) A/B timing at 32768 / 36864 / 40960, double lower and upper: the tree (wide tiles from ld 36864)
#     against the same tree with them off, alternating.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c3; mkdir -p $R /tmp/ab/off /tmp/ab/all
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include -DGCHOL_PREC_D"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
cc $CF -DGCHOL_WIDE_TILE_LD=9000000000000000000LL -c src/potrf_driver.c -o /tmp/ab/off/potrf_driver_d.o || exit 1
cc $CF -DGCHOL_WIDE_TILE_LD=0 -DGCHOL_WIDE_TILE_K=0 -c src/potrf_driver.c -o /tmp/ab/all/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/liboff.a; ar r /tmp/ab/liboff.a /tmp/ab/off/potrf_driver_d.o
cp lib/libgchol.a /tmp/ab/liball.a; ar r /tmp/ab/liball.a /tmp/ab/all/potrf_driver_d.o
cc ${CF/-DGCHOL_PREC_D/} -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_off /tmp/ab/liboff.a $LK -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
for t in potrf pftrf; do
  cc $CF -Itesting testing/testing_$t.c testing/testing_common.c -o /tmp/ab/td${t}_all /tmp/ab/liball.a $LK -llapacke -lopenblas -lm -lstdc++ || exit 1
done
for t in potrf pftrf; do
  timeout 200 /tmp/ab/td${t}_all --suite > $R/td${t}_all.log 2>&1; echo "td${t}_all rc=$? $(tail -1 $R/td${t}_all.log) t=$((SECONDS-S))"
done
timeout 150 compute-sanitizer --tool memcheck /tmp/ab/tdpotrf_all --suite --quick > $R/memcheck_all.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(tail -2 $R/memcheck_all.log | head -1) t=$((SECONDS-S))"
for rep in 1 2; do
  for b in new off; do
    B=./benchmarks/bench_potrf; [ $b = off ] && B=/tmp/ab/bench_off
    $B -n 32768,36864,40960 --prec d --uplo LU --variant auto --niter 3 > $R/ab_${b}_$rep.log 2>&1
    echo "$b $rep: $(grep -E '^ *d +[0-9]+ [LU] auto' $R/ab_${b}_$rep.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}') t=$((SECONDS-S))"
  done
done
gzip -9 -n $R/*.log; rm -f $R/build.log.gz
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
