#!/bin/bash
# session 11, call 5: two more A/B builds of the tiled kernel against the committed one (new): ob = one barrier per update step (the copies of step k+1 issued after it), pt = each worker takes its next ticket as it starts an item, obpt = both; tiled d/s L/U 1024-6144, auto d L/U 8192-16384; d/s suites of obpt
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
LIBS="lib/libgchol.a -L/usr/local/cuda/lib64 -lcublas -lcudart -lcusolver -llapacke -lopenblas -lm -lpthread -lstdc++"
mkdir -p scratch/s11; cp kernels/potrf_tiled.cu kernels/_v_tmp.cu
for v in ob pt obpt; do F=""; case $v in ob) F="-DGCHOL_TILED_ONE_BARRIER";; pt) F="-DGCHOL_TILED_PREFETCH_TICKET";; obpt) F="-DGCHOL_TILED_ONE_BARRIER -DGCHOL_TILED_PREFETCH_TICKET";; esac
  ( /usr/local/cuda/bin/nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 $F -c kernels/_v_tmp.cu -o /tmp/pt_$v.o && gcc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c benchmarks/bench_common.c /tmp/pt_$v.o $LIBS -o scratch/s11/bench_potrf_$v ) &
done; wait; rm kernels/_v_tmp.cu
for p in D S; do gcc -O2 -std=c11 -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_$p testing/testing_potrf.c testing/testing_common.c /tmp/pt_obpt.o $LIBS -o scratch/s11/testing_${p}potrf_obpt; done
ls scratch/s11
echo "build t=$((SECONDS-S))"
for r in 1 2; do for v in new ob pt obpt; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s11/bench_potrf_$v
  $b -n 1024,2048,4096,6144 --prec ds --uplo LU --variant tiled --niter 7 --csv $R/tiled_${v}_$r.csv > $R/tiled_${v}_$r.log 2>&1
  echo "$v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/tiled_${v}_$r.log | awk '{printf "%s%s%s %s  ", $1,$2,$3,$9}')"
done; done
echo "t=$((SECONDS-S))"
for v in new ob pt obpt; do
  b=./benchmarks/bench_potrf; [ $v != new ] && b=./scratch/s11/bench_potrf_$v
  $b -n 8192,12288,16384 --prec d --uplo L --niter 5 --csv $R/auto_${v}.csv > $R/auto_${v}.log 2>&1
  echo "$v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/auto_${v}.log | awk '{printf "%s%s%s %s %s  ", $1,$2,$3,$9,$15}')"
done
echo "t=$((SECONDS-S))"
for p in D S; do ./scratch/s11/testing_${p}potrf_obpt --suite > $R/suite_${p}_obpt.log 2>&1; echo "suite $p obpt: $(grep SUMMARY $R/suite_${p}_obpt.log) t=$((SECONDS-S))"; grep FAIL $R/suite_${p}_obpt.log | head -5; done
rm -f $R/build.log
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
