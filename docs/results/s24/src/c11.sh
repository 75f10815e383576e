#!/bin/bash
# session 24, call 11: the whole of make test's GPU testers on the final tree, full suites, the
# library testers in parallel groups and the shim's runs alone after them; memcheck of the quick
# dsyrk_diag, dhost_bounds and wls suites beside them.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c11; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=2
run() { name=$1; shift; timeout $((480-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY|ERROR SUMMARY' $R/$name.log | tail -1)"; }
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
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY' $R/$name.log | tail -1)"; }
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 env GCHOL_LAPACK_CPU_LIB="$PWD/testing/cpu64_lapack.so" ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1)
  [ -z "$line" ] && { echo "$(basename $l .log): no SUMMARY"; f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
for m in memcheck_dsyrk_diag memcheck_dhost_bounds memcheck_wls; do echo "$m: $(grep 'ERROR SUMMARY' $R/$m.log | tail -1)"; done
grep -h "FAILED" -A1 $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
