#!/bin/bash
# session 24, call 6: the final tree (syrk_diag's full-stage copies; the host potrf's download
# back to two pinned slots). Every library tester that the two changes reach, full suites, in
# parallel groups (all but dpotrf and dpftrf, whose code paths neither change reaches), memcheck
# of the quick ssyrk_diag and dhost_bounds suites; then the shim's LP64, ILP64 and hidden-GPU
# runs alone.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((470-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY|ERROR SUMMARY' $R/$name.log | tail -1)"; }
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_host ./testing/testing_host ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_wls ./testing/testing_wls --suite; run testing_host_stage ./testing/testing_host_stage ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run testing_shost_bounds ./testing/testing_shost_bounds; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run memcheck_ssyrk_diag compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_ssyrk_diag --suite --quick; run memcheck_dhost_bounds compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dhost_bounds --quick ) &
wait
unset OPENBLAS_NUM_THREADS
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY' $R/$name.log | tail -1)"; }
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1)
  [ -z "$line" ] && { echo "$(basename $l .log): no SUMMARY"; f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
for m in memcheck_ssyrk_diag memcheck_dhost_bounds; do echo "$m: $(grep 'ERROR SUMMARY' $R/$m.log | tail -1)"; done
grep -h "FAILED" -A1 $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
