#!/bin/bash
# session 33, call 7: panel mode takes pair items (two tile rows per solve item, sharing L(tj, k):
# three tiles per step for two products instead of four), after c5-c6 found the update steps bound
# by L2 bandwidth. A/B against the landing tree's kernel (alternating
# processes), panelprof with both, then the dpotrf / spotrf full suites, the dpftrf quick suite,
# memcheck and racecheck of the tiled kernel in both modes.
source docs/results/call_common.sh c7 all
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
echo "old built t=$((SECONDS-S))"
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
run pp_old --limit 590 /tmp/ab/pp_old old
run pp_new --limit 590 /tmp/ab/pp_new new
grep -hE "^(old|new)|^   " $R/pp_old.log $R/pp_new.log | cut -c1-250
ab d -n 4096,8192,12288,16384,24576,32768 --prec d --uplo L --niter 5
ab du -n 8192,16384 --prec d --uplo U --niter 5
ab s -n 8192,12288,16384,32768 --prec s --uplo L --niter 5
run testing_dpotrf --limit 590 ./testing/testing_dpotrf --suite &
run testing_spotrf --limit 590 ./testing/testing_spotrf --suite &
( run testing_dpftrf_quick --limit 590 ./testing/testing_dpftrf --suite --quick
  run testing_spftrf_quick --limit 590 ./testing/testing_spftrf --suite --quick ) &
( run memcheck_dpotrf --limit 590 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick
  run racecheck_panel_dL --limit 590 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dpotrf -n 1500 --uplo L --variant left --nb 512 --recnb 256 --check
  run racecheck_panel_sU --limit 590 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 1300 --uplo U --variant left --nb 512 --recnb 512 --check ) &
wait
tally
for l in $R/memcheck_*.log $R/racecheck_*.log; do echo "$(basename $l .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $l | tail -1) $(tail -1 $l)"; done
finish
