#!/bin/bash
# Builds /tmp/ab/{bench_potrf,testing_dpotrf}_split: the library with the split-panel experiment
# compiled in (potrf_driver.c -DGCHOL_SPLIT_PANEL_EXPERIMENT, potrf_tiled.cu
# -DGCHOL_TILED_GRID_ENV_EXPERIMENT; both off unless GCHOL_SPLIT_PANEL=1 / GCHOL_PANEL_GRID=R).
# Run from the repository root after `make lib`, with split_panel.patch applied (git apply
# docs/results/s31/src/split_panel.patch): the experiment was removed from the tree after call 8.
set -e
mkdir -p /tmp/ab
CI="-Iinclude -Isrc -I/usr/local/cuda/include"
CF="-O2 -std=c11 -Wall -Wextra -fPIC $CI"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
cc $CF -DGCHOL_PREC_D -DGCHOL_SPLIT_PANEL_EXPERIMENT -c src/potrf_driver.c -o /tmp/ab/potrf_driver_d.o
nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels \
    --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90 -DGCHOL_TILED_GRID_ENV_EXPERIMENT \
    -c kernels/potrf_tiled.cu -o /tmp/ab/potrf_tiled.cu.o
cp lib/libgchol.a /tmp/ab/libsplit.a
ar r /tmp/ab/libsplit.a /tmp/ab/potrf_driver_d.o /tmp/ab/potrf_tiled.cu.o
cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_split /tmp/ab/libsplit.a $LK
cc $CF -DGCHOL_PREC_D -Itesting testing/testing_potrf.c testing/testing_common.c \
    -o /tmp/ab/testing_dpotrf_split /tmp/ab/libsplit.a $LK
cc $CF -Ibenchmarks benchmarks/timeline_potrf.c benchmarks/bench_common.c -o /tmp/ab/timeline_potrf_split /tmp/ab/libsplit.a $LK
