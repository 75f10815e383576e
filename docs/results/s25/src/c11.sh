#!/bin/bash
# session 25, call 11 (the final tree: 16-byte stores of whole tiles only, the diagonal tiles scalar again): every GPU tester of make test on the final tree, full suites (as s24's
# c11): the library testers in parallel groups, memcheck of the quick dsyrk_diag, dhost_bounds
# and wls suites beside them, then the shim's runs alone. Uses docs/results/call_common.sh.
source docs/results/call_common.sh c11 all
export OPENBLAS_NUM_THREADS=2
( run testing_dpotrf ./testing/testing_dpotrf --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_host ./testing/testing_host ) &
( run testing_dpftrf ./testing/testing_dpftrf --suite ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite; run testing_host_stage ./testing/testing_host_stage ) &
( run testing_dsposv ./testing/testing_dsposv --suite; run testing_wls ./testing/testing_wls --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_shost_bounds ./testing/testing_shost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run memcheck_dsyrk_diag compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick; run memcheck_dhost_bounds compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dhost_bounds --quick; run memcheck_wls compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_wls --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
run testing_lapack_shim --limit 590 ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 --limit 590 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 --limit 590 env GCHOL_LAPACK_CPU_LIB="$PWD/testing/cpu64_lapack.so" ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload --limit 590 sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu --limit 590 env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
tally
for m in memcheck_dsyrk_diag memcheck_dhost_bounds memcheck_wls; do echo "$m: $(grep 'ERROR SUMMARY' $R/$m.log | tail -1)"; done
finish
