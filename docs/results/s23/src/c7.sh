#!/bin/bash
# session 23, call 7: the final tree. Every tester of `make test` with its full suite (the library
# testers in parallel groups, memcheck of the quick host-bounds and wls suites beside; then the
# shim's runs alone), plus single precision's new block sizes checked where the suites do not
# reach (spotrf table mode with --check at 10240..20481, device and host interfaces, both
# triangles; spftrf table mode at 12288 / 20481 in the four variants).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((560-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
( run testing_dpftrf ./testing/testing_dpftrf --suite ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dpotrf ./testing/testing_dpotrf --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_wls ./testing/testing_wls --suite ) &
( run memcheck_dhost_bounds compute-sanitizer --tool memcheck ./testing/testing_dhost_bounds --quick; run memcheck_wls compute-sanitizer --tool memcheck ./testing/testing_wls --suite --quick; run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_shost_bounds ./testing/testing_shost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite; run testing_host ./testing/testing_host; run testing_host_stage ./testing/testing_host_stage; \
  for u in L U; do run table_spotrf_$u ./testing/testing_spotrf -n 10240,12289,20480,20481 --uplo $u --check; run table_spotrf_host_$u ./testing/testing_spotrf -n 12289,20481 --uplo $u --check --interface host; done; \
  for t in N T; do for u in L U; do run table_spftrf_$t$u ./testing/testing_spftrf -n 12288,20481 --transr $t --uplo $u; done; done ) &
wait
echo "library testers t=$((SECONDS-S))"
unset OPENBLAS_NUM_THREADS
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run testing_lapack_shim_cpu64 env GCHOL_LAPACK_CPU_LIB=$PWD/testing/cpu64_lapack.so ./testing/testing_lapack_shim --suite --quick --cpu64
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
echo "tests t=$((SECONDS-S))"
p=0; f=0; s=0
for l in $R/testing_*.log $R/table_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1); echo "$(basename $l .log): $line $(tail -1 $l)"
  [ -z "$line" ] && { f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
for m in dhost_bounds wls; do echo "memcheck_$m: $(grep '^SUMMARY' $R/memcheck_$m.log | tail -1) $(grep 'ERROR SUMMARY' $R/memcheck_$m.log | tail -1)"; done
grep -h "FAILED" $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
