#!/bin/bash
# session 33, call 5: c4's worker forms restricted to panel mode (the whole-matrix tiled kernel
# as before). A/B against the landing tree's kernel, alternating processes; then panelprof
# (docs/results/s33/src/panelprof.cu) with both kernels: where a worker item's time goes in a
# panel alone.
source docs/results/call_common.sh c5 all
cf="-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
lk="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
mkdir -p /tmp/ab/old /tmp/oldk /tmp/oldkp
cp build/ab_old_potrf_tiled.cu /tmp/oldk/potrf_tiled.cu
cp build/ab_old_potrf_tiled_prof.cu /tmp/oldkp/potrf_tiled.cu
nvcc $cf -Ikernels -DGCHOL_TILED_PROFILE=140000 docs/results/s33/src/panelprof.cu -o /tmp/ab/pp_new > $R/pp_build_new.log 2>&1 &
nvcc $cf -I/tmp/oldkp -Ikernels -DGCHOL_TILED_PROFILE=140000 docs/results/s33/src/panelprof.cu -o /tmp/ab/pp_old > $R/pp_build_old.log 2>&1 &
nvcc $cf -I/tmp/oldk -Ikernels -c -x cu /tmp/oldk/potrf_tiled.cu -o /tmp/ab/old/potrf_tiled.cu.o
cp lib/libgchol.a /tmp/ab/libold.a && ar r /tmp/ab/libold.a /tmp/ab/old/potrf_tiled.cu.o
cc -O2 -std=c11 -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include benchmarks/bench_potrf.c \
   benchmarks/bench_common.c -o /tmp/ab/bench_potrf_old /tmp/ab/libold.a $lk
wait
echo "old built t=$((SECONDS-S))"; ls /tmp/ab
ab() { # NAME ARGS...: old, new, old, new
  local name=$1; shift
  for r in 1 2; do
    run ${name}_old_$r --limit 590 /tmp/ab/bench_potrf_old "$@"
    run ${name}_new_$r --limit 590 ./benchmarks/bench_potrf "$@"
  done
  for f in $R/${name}_*.log; do
    echo "$(basename $f .log): $(grep -E '^ *[ds] +[0-9]+ [LU] ' $f | awk '{printf "%s%s%s %s/%s=%s  ", $1, $2, $3, $9, $12, $15}')"
  done
}
ab d -n 4096,8192,12288,16384,24576 --prec d --uplo L --niter 5
ab du -n 4096,16384 --prec d --uplo U --niter 5
ab s -n 4096,8192,16384 --prec s --uplo L --niter 5
run pp_old --limit 590 /tmp/ab/pp_old old
run pp_new --limit 590 /tmp/ab/pp_new new
grep -hE "^(old|new)|^   " $R/pp_old.log $R/pp_new.log | cut -c1-250
finish
