#!/bin/bash
# session 15, call 4 (not run in session 15: the device was withdrawn): the double A D^2 A^T kernel
# on 64 x 64 tiles, 2 warps, four blocks per SM (-DGCHOL_SYRK_D_TILE=64) against the default
# 128 x 128 tiles, 8 warps, one block: tests (dsyrk_diag / dpftrf suites), racecheck + memcheck of
# the quick dsyrk_diag suite, and bench_syrk_diag on the four shapes, 64 / 128 / 64 / 128.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R /tmp/ab/t64
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 \
  -DGCHOL_SYRK_D_TILE=64 -Xptxas -v -c kernels/syrk_diag.cu -o /tmp/ab/t64/syrk_diag.cu.o > $R/ptxas64.log 2>&1 || { tail $R/ptxas64.log; exit 1; }
cp lib/libgchol.a /tmp/ab/lib64.a; ar r /tmp/ab/lib64.a /tmp/ab/t64/syrk_diag.cu.o
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
CF="-O2 -std=c11 -Iinclude -Isrc -I/usr/local/cuda/include"
cc $CF -Ibenchmarks benchmarks/bench_syrk_diag.c benchmarks/bench_common.c -o /tmp/ab/bsd64 /tmp/ab/lib64.a $LK -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
cc $CF -DGCHOL_PREC_D -Itesting testing/testing_syrk_diag.c testing/testing_common.c -o /tmp/ab/tdsyrk64 /tmp/ab/lib64.a $LK -llapacke -lopenblas -lm -lstdc++ || exit 1
cc $CF -DGCHOL_PREC_D -Itesting testing/testing_pftrf.c testing/testing_common.c -o /tmp/ab/tdpftrf64 /tmp/ab/lib64.a $LK -llapacke -lopenblas -lm -lstdc++ || exit 1
timeout 200 /tmp/ab/tdsyrk64 --suite > $R/tdsyrk64.log 2>&1; echo "dsyrk_diag (64) rc=$? $(tail -1 $R/tdsyrk64.log) t=$((SECONDS-S))"
grep -E "FAIL" $R/tdsyrk64.log | head -5
for b in 64 128 64 128; do
  B=./benchmarks/bench_syrk_diag; [ $b = 64 ] && B=/tmp/ab/bsd64
  $B --prec d --runs 5 > $R/bsd_${b}_$SECONDS.log 2>&1; echo "== $b t=$((SECONDS-S))"; grep -vE '^$' $(ls -t $R/bsd_${b}_*.log | head -1) | grep -v "^# [a-z]" | cut -c1-150
done
timeout 120 compute-sanitizer --tool racecheck /tmp/ab/tdsyrk64 --suite --quick > $R/racecheck64.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck64.log | tail -1) $(tail -1 $R/racecheck64.log) t=$((SECONDS-S))"
timeout 100 compute-sanitizer --tool memcheck /tmp/ab/tdsyrk64 --suite --quick > $R/memcheck64.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck64.log | tail -1) $(tail -1 $R/memcheck64.log) t=$((SECONDS-S))"
timeout 150 /tmp/ab/tdpftrf64 --suite > $R/tdpftrf64.log 2>&1; echo "dpftrf (64) rc=$? $(tail -1 $R/tdpftrf64.log) t=$((SECONDS-S))"
gzip -9 -n $R/*.log; rm -f $R/build.log.gz
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
