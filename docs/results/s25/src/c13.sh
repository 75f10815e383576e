#!/bin/bash
# session 25, call 13 (the final tree: 16-byte stores in upper too, whose gap to lower at single
# 1024 reached +10.9% in call 12): issue 3's full auto sweep first (the GPU to itself), then every
# GPU tester of make test, full suites, in parallel groups with memcheck of three quick suites
# beside them, the shim's runs alone, and racecheck of the tiled kernel in upper at 1000.
source docs/results/call_common.sh c13 all
run bench_sweep --limit 150 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste -d' ' - - | head -40
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
export OPENBLAS_NUM_THREADS=2
L=545
( run testing_dpotrf --limit $L ./testing/testing_dpotrf --suite ) &
( run testing_spotrf --limit $L ./testing/testing_spotrf --suite; run testing_host --limit $L ./testing/testing_host ) &
( run testing_dpftrf --limit $L ./testing/testing_dpftrf --suite ) &
( run testing_spftrf --limit $L ./testing/testing_spftrf --suite ) &
( run testing_dsyrk_diag --limit $L ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag --limit $L ./testing/testing_ssyrk_diag --suite; run testing_host_stage --limit $L ./testing/testing_host_stage ) &
( run testing_dsposv --limit $L ./testing/testing_dsposv --suite; run testing_wls --limit $L ./testing/testing_wls --suite ) &
( run testing_dhost_bounds --limit $L ./testing/testing_dhost_bounds; run testing_shost_bounds --limit $L ./testing/testing_shost_bounds; run testing_dhost_bounds_direct --limit $L env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run testing_shost_bounds_direct --limit $L env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run memcheck_dsyrk_diag --limit $L compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick; run memcheck_spotrf --limit $L compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spotrf --suite --quick; run memcheck_wls --limit $L compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_wls --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
run testing_lapack_shim --limit 585 ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 --limit 585 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 --limit 585 env GCHOL_LAPACK_CPU_LIB="$PWD/testing/cpu64_lapack.so" ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload --limit 585 sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu --limit 585 env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
tally
for m in memcheck_dsyrk_diag memcheck_spotrf memcheck_wls; do echo "$m: $(grep 'ERROR SUMMARY' $R/$m.log | tail -1)"; done
for p in s d; do run racecheck_${p}U --limit 596 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 1000 --uplo U --variant tiled --niter 1; done
finish
