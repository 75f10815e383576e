#!/bin/bash
# session 34, call 2: D^2 applied to the DMMA's B fragments in registers (mma_scaled, four DMULs
# per k-step) instead of the pass over each stage in shared memory, double precision only.
# A/B: bench_syrk_diag d against the same tree built with -DGCHOL_SYRK_REG_SCALE=0 (the landing
# kernel), alternating processes, two rounds each; dsyrk_diag and wls suites, memcheck.
source docs/results/call_common.sh c2 all
mkdir -p /tmp/ab/old
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude \
    --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -DGCHOL_SYRK_REG_SCALE=0 -Ikernels \
    -c kernels/syrk_diag.cu -o /tmp/ab/old/syrk_diag.cu.o || exit 1
cp lib/libgchol.a /tmp/ab/libold.a && ar r /tmp/ab/libold.a /tmp/ab/old/syrk_diag.cu.o || exit 1
cc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_syrk_diag.c \
    benchmarks/bench_common.c -o /tmp/ab/bench_syrk_diag_old /tmp/ab/libold.a \
    -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread \
    -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
echo "ab build t=$((SECONDS-S))"
for r in 1 2; do
    run syrk_old_$r --limit 300 /tmp/ab/bench_syrk_diag_old --prec d --runs 5 --seed $((2026 + r))
    run syrk_new_$r --limit 300 ./benchmarks/bench_syrk_diag --prec d --runs 5 --seed $((2026 + r))
done
for f in $R/syrk_*.log; do
    echo "$(basename $f .log): $(grep -E '^ +[0-9]+ +[0-9]+ d \|' $f | awk -F'|' '{split($1,a," "); split($2,b," "); split($3,c," "); split($6,e," "); printf "%sx%s %s/%s(%s)  ", a[1], a[2], b[1], c[1], e[1]}')"
done
run testing_dsyrk_diag --limit 520 ./testing/testing_dsyrk_diag --suite
run testing_wls --limit 540 ./testing/testing_wls --suite
run memcheck_dsyrk_diag --limit 580 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick
tally
finish
