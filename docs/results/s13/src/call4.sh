#!/bin/bash
# session 13, call 4: modes 0 (plain, HEAD), 2 (short + next + redo on range checks), 4 (no redo, timing only),
# 5 (short + next; redo when the block's sum of 1/sqrt(pivot) is not finite). p9; tiled d L/U 1024-4096 x2;
# auto d L 8192/16384 (modes 0, 5); dpotrf suite (mode 5).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
P=docs/results/s12/src; rm -rf /tmp/ab; M="0 2 4 5"
for m in $M; do mkdir -p /tmp/ab/m$m; for k in potrf_tiled potf2; do $NV -DGCHOL_AB_MODE=$m -c kernels/$k.cu -o /tmp/ab/m$m/$k.cu.o & done
  $NV -DGCHOL_AB_MODE=$m $P/p9.cu -o /tmp/ab/p9_m$m & done; wait
for m in $M; do cp lib/libgchol.a /tmp/ab/lib$m.a; ar r /tmp/ab/lib$m.a /tmp/ab/m$m/*.o
  gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/lib$m.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_m$m &
  gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_D testing/testing_potrf.c testing/testing_common.c /tmp/ab/lib$m.a -L/usr/local/cuda/lib64 -lcublas -lcudart -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/test_m$m & done; wait
echo "build t=$((SECONDS-S))"
which cuobjdump && for m in 5; do cuobjdump -sass /tmp/ab/p9_m$m > $R/p9_m$m.sass 2>&1; done
for m in $M; do echo "== p9 mode $m"; /tmp/ab/p9_m$m; done | tee $R/p9.log | grep -E "==|d m="
for r in 1 2; do for m in $M; do
  /tmp/ab/bench_m$m -n 1024,2048,3072,4096 --prec d --uplo LU --variant tiled --niter 7 --csv $R/tiled_m${m}_$r.csv > $R/tiled_m${m}_$r.log 2>&1
  echo "m$m.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_m${m}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
for m in 0 5; do /tmp/ab/bench_m$m -n 8192,16384 --prec d --uplo L --niter 5 > $R/auto_m$m.log 2>&1; echo "m$m $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_m$m.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"; done
echo "t=$((SECONDS-S))"
for m in 5; do /tmp/ab/test_m$m --suite > $R/suite_m$m.log 2>&1; echo "suite dpotrf mode $m: $(grep SUMMARY $R/suite_m$m.log) t=$((SECONDS-S))"; grep FAIL $R/suite_m$m.log | head -4; done
grep -E "tiny|huge|subnormal|inf_diag" $R/suite_m5.log | awk '{print $1,$3,$6,$7,$9,$10,$11,$12,$13,$14}' | grep -v inf_diag | head -20
rm -f $R/build.log
tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
