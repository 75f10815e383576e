#!/bin/bash
# session 15, call 4: the double A D^2 A^T kernel on 64 x 64 tiles, 2 warps, four blocks per SM
# (GCHOL_SYRK_D_TILE=64) against 128 x 128 tiles, 8 warps, one block (=128, the old kernel):
# tests (dsyrk_diag / dpftrf suites), racecheck + memcheck of the quick dsyrk_diag suite, and
# bench_syrk_diag on the four shapes, new / old / new / old.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R /tmp/ab/t128
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 \
  -DGCHOL_SYRK_D_TILE=128 -c kernels/syrk_diag.cu -o /tmp/ab/t128/syrk_diag.cu.o || exit 1
cp lib/libgchol.a /tmp/ab/lib128.a; ar r /tmp/ab/lib128.a /tmp/ab/t128/syrk_diag.cu.o
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
cc -O2 -std=c11 -Iinclude -Isrc -I/usr/local/cuda/include -Ibenchmarks benchmarks/bench_syrk_diag.c benchmarks/bench_common.c -o /tmp/ab/bsd128 /tmp/ab/lib128.a $LK -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
timeout 200 ./testing/testing_dsyrk_diag --suite > $R/tdsyrk.log 2>&1; echo "dsyrk_diag rc=$? $(tail -1 $R/tdsyrk.log) t=$((SECONDS-S))"
grep -E "FAIL" $R/tdsyrk.log | head -5
for b in new old new old; do
  B=./benchmarks/bench_syrk_diag; [ $b = old ] && B=/tmp/ab/bsd128
  $B --prec d --runs 5 > $R/bsd_$b.log 2>&1; echo "== $b t=$((SECONDS-S))"; grep -vE '^$' $R/bsd_$b.log | grep -v "^# [a-z]" | cut -c1-150
done
timeout 120 compute-sanitizer --tool racecheck ./testing/testing_dsyrk_diag --suite --quick > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck.log | tail -1) $(tail -1 $R/racecheck.log) t=$((SECONDS-S))"
timeout 100 compute-sanitizer --tool memcheck ./testing/testing_dsyrk_diag --suite --quick > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) $(tail -1 $R/memcheck.log) t=$((SECONDS-S))"
timeout 150 ./testing/testing_dpftrf --suite > $R/tdpftrf.log 2>&1; echo "dpftrf rc=$? $(tail -1 $R/tdpftrf.log) t=$((SECONDS-S))"
gzip -9 -n $R/*.log; rm -f $R/build.log.gz
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
