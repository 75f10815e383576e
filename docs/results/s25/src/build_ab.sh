#!/bin/bash
# Session 25: A/B binaries of single precision's chain-step forms, built on the machine without a
# GPU into build/ab/ (then packed into build/ab.tar.xz, which the device call carries).
# FORMS: name=flags pairs; each form recompiles the three kernels that include tile_factor.cuh.
set -e
cd "$(dirname "$0")/../../../.."
make -j16 all > /dev/null
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
LD="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
AB=build/ab; rm -rf $AB; mkdir -p $AB
TESTS=${TESTS:-"spotrf"}
for form in $FORMS; do
  name=${form%%=*}; flags=${form#*=}; flags=${flags//,/ }
  mkdir -p $AB/o_$name
  for k in potrf_tiled potf2 trsm_rlt; do $NV $flags -c kernels/$k.cu -o $AB/o_$name/$k.cu.o & done
  $NV $flags -DGCHOL_TILED_PROFILE=20000 docs/results/s12/src/chainprof.cu -o $AB/chainprof_$name &
  $NV $flags docs/results/s25/src/syrkbench.cu -o $AB/syrkbench_$name &
done
wait
for form in $FORMS; do
  name=${form%%=*}
  cp lib/libgchol.a $AB/lib_$name.a; (cd $AB/o_$name && ar r ../lib_$name.a *.o)
  cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o $AB/bench_potrf_$name $AB/lib_$name.a $LD -lcusolver -llapacke -lopenblas -lm -lstdc++ &
  for t in $TESTS; do
    src=testing/testing_${t:1}.c; P=$(echo ${t:0:1} | tr a-z A-Z)
    cc $CF -DGCHOL_PREC_$P -Itesting $src testing/testing_common.c -o $AB/testing_${t}_$name $AB/lib_$name.a $LD -llapacke -lopenblas -lm -lstdc++ &
  done
done
wait
rm -rf $AB/o_* $AB/*.a
tar cJf build/ab.tar.xz -C build ab
ls -la $AB build/ab.tar.xz
