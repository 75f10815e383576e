#!/bin/bash
# session 22, call 11: the final tree (everything of c6, plus the host least squares on the
# shared streaming engine, the review's fixes and the shared syrk_diag argument check). Every
# tester of `make test` with its full suite, the ten library testers in five parallel groups
# (memcheck of the quick wls suite, host forms included, in a sixth), then the shim's five
# alone (its out-of-memory case takes all but 64 MB of the device), then memcheck of the quick
# dsyrk_diag suite.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c11; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
( run testing_dpftrf ./testing/testing_dpftrf --suite ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dpotrf ./testing/testing_dpotrf --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_wls ./testing/testing_wls --suite ) &
( run memcheck_wls compute-sanitizer --tool memcheck ./testing/testing_wls --suite --quick ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite; run testing_host ./testing/testing_host; run testing_host_stage ./testing/testing_host_stage ) &
wait
echo "library testers t=$((SECONDS-S))"
unset OPENBLAS_NUM_THREADS
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 env GCHOL_LAPACK_CPU_LIB=$PWD/testing/cpu64_lapack.so ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
run testing_lapack_shim_ilp64_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback --ilp64
echo "tests t=$((SECONDS-S))"
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1); echo "$(basename $l .log): $line $(tail -1 $l)"
  [ -z "$line" ] && { f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
run memcheck_dsyrk_diag compute-sanitizer --tool memcheck ./testing/testing_dsyrk_diag --suite --quick
for m in wls dsyrk_diag; do echo "memcheck_$m: $(grep '^SUMMARY' $R/memcheck_$m.log | tail -1) $(grep 'ERROR SUMMARY' $R/memcheck_$m.log | tail -1)"; done
grep -h "FAILED" $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
