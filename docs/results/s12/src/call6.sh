#!/bin/bash
# session 12, call 6: where potf2's inner update (a) spends its time (p11: stamps around its k loop), and two
# variants of it: C's values loaded before the k loop (-DGCHOL_AB_CPREFETCH), the k loop unrolled by 2
# (-DGCHOL_AB_UNROLL); p9 cycles for each; tiled d/s L 1024/2048 for each.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/ab; mkdir -p /tmp/ab
declare -A F=([base]="" [cpf]="-DGCHOL_AB_CPREFETCH" [unr]="-DGCHOL_AB_UNROLL" [both]="-DGCHOL_AB_CPREFETCH -DGCHOL_AB_UNROLL")
for v in base cpf unr both; do $NV ${F[$v]} docs/results/s12/src/p9.cu -o /tmp/ab/p9_$v & $NV ${F[$v]} -c kernels/potrf_tiled.cu -o /tmp/ab/$v.o & done
$NV -DSTAMP_T=0 docs/results/s12/src/p11.cu -o /tmp/ab/p11_0 & $NV -DSTAMP_T=32 docs/results/s12/src/p11.cu -o /tmp/ab/p11_32 &
wait
for v in base cpf unr both; do gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/ab/$v.o lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++ -o /tmp/ab/bench_$v; done
echo "build t=$((SECONDS-S))"
/tmp/ab/p11_0 > $R/p11_t0.log; /tmp/ab/p11_32 > $R/p11_t32.log; cat $R/p11_t0.log; grep "(a)" $R/p11_t32.log
for v in base cpf unr both; do echo "== p9 $v"; /tmp/ab/p9_$v | grep "m=128"; done | tee $R/p9.log
for r in 1 2; do for v in base cpf unr both; do
  /tmp/ab/bench_$v -n 1024,2048 --prec ds --uplo L --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
