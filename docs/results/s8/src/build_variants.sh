#!/bin/bash
# builds bench_syrk_diag / testing_dsyrk_diag against syrk_diag.cu compiled with each variant's -D flags
# usage: build_variants.sh name "flags" [name "flags" ...]
cd /work/main
CU=/usr/local/cuda
while [ $# -gt 0 ]; do
  name=$1; flags=$2; shift 2
  nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 $flags -c kernels/syrk_diag.cu -o /tmp/v_$name.o -Xptxas -v 2>&1 | grep -A3 "syrk_diag_kernelIfLb1ELb1" | grep -o "Used [0-9]* registers" | sed "s/^/$name: /"
  gcc -O2 -std=c11 -Iinclude -Isrc -I$CU/include -Ibenchmarks benchmarks/bench_syrk_diag.c benchmarks/bench_common.c /tmp/v_$name.o -o scratch/s8/bsd_$name lib/libgchol.a -L$CU/lib64 -Wl,-rpath,$CU/lib64 -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++ || echo FAIL bench $name
  gcc -O2 -std=c11 -Iinclude -Isrc -I$CU/include -DGCHOL_PREC_S -Itesting testing/testing_syrk_diag.c testing/testing_common.c /tmp/v_$name.o -o scratch/s8/tss_$name lib/libgchol.a -L$CU/lib64 -Wl,-rpath,$CU/lib64 -lcublas -lcudart -lpthread -llapacke -lopenblas -lm -lstdc++ || echo FAIL test $name
done
