#!/bin/bash
# session 23, call 8 (call 7 ran out of time: its serial table runs with CPU references held the
# cores): every library tester of `make test` with its full suite on the final tree, in parallel
# groups, memcheck of the quick host-bounds suite beside. The shim's runs are call 9's.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
( run testing_dpftrf ./testing/testing_dpftrf --suite ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dpotrf ./testing/testing_dpotrf --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_wls ./testing/testing_wls --suite; run testing_host ./testing/testing_host; run testing_host_stage ./testing/testing_host_stage; run memcheck_dhost_bounds compute-sanitizer --tool memcheck ./testing/testing_dhost_bounds --quick ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_shost_bounds ./testing/testing_shost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
wait
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1)
  [ -z "$line" ] && { echo "$(basename $l .log): no SUMMARY"; f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
echo "memcheck_dhost_bounds: $(grep '^SUMMARY' $R/memcheck_dhost_bounds.log | tail -1) $(grep 'ERROR SUMMARY' $R/memcheck_dhost_bounds.log | tail -1)"
grep -h "FAILED" $R/*.log | head -20
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
