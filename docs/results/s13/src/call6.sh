#!/bin/bash
# session 13, call 6: the cost of the short step's underflow check, and the same ftz 1/sqrt in single.
# base = tree 26c9cac; dchk1 = check as 0 < |a| < 2^-511 (-DGCHOL_AB_DCHK=1); dchk2 = no underflow check
# (timing only); dchk3 = the check with & instead of &&; sftz = single takes the short path too
# (rsqrt.approx.ftz.f32, redo when the block's sum of 1/sqrt is not finite; -DGCHOL_AB_SFTZ).
# p9; tiled d/s L 1024-4096 x2; spotrf quick suite for sftz.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
P=docs/results/s12/src; rm -rf /tmp/ab; V="base dchk1 dchk2 dchk3 sftz"
flag() { case $1 in base) echo "";; dchk*) echo "-DGCHOL_AB_DCHK=${1#dchk}";; sftz) echo "-DGCHOL_AB_SFTZ";; esac; }
for v in $V; do mkdir -p /tmp/ab/$v; for k in potrf_tiled potf2; do $NV $(flag $v) -c kernels/$k.cu -o /tmp/ab/$v/$k.cu.o & done
  $NV $(flag $v) $P/p9.cu -o /tmp/ab/p9_$v & done; wait
for v in $V; do cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/$v/*.o
  gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$v.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v & done
gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_S testing/testing_potrf.c testing/testing_common.c /tmp/ab/libsftz.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/test_sftz & wait
echo "build t=$((SECONDS-S))"
for v in $V; do echo "== p9 $v"; /tmp/ab/p9_$v; done | tee $R/p9.log | grep -E "==|m=128"
for r in 1 2; do for v in $V; do
  /tmp/ab/bench_$v -n 1024,2048,4096 --prec ds --uplo L --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
/tmp/ab/test_sftz --suite --quick > $R/quick_sftz.log 2>&1; echo "quick spotrf sftz: $(grep SUMMARY $R/quick_sftz.log) t=$((SECONDS-S))"; grep FAIL $R/quick_sftz.log | head -4
rm -f $R/build.log
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
