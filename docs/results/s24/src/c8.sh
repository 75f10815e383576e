#!/bin/bash
# session 24, call 8: the left-looking-lookahead rule written once (gchol_options_left_lookahead:
# the driver's 'U' swap in pieces and its host transfers, the options' swap choice, and the
# least squares' C coming back beside its factorization via potrf_device_to_host_overlaps).
# Every tester the rule reaches: d/s potrf and wls full suites, host, dsposv, d/s host_bounds
# (both copy paths), quick d/s pftrf, in parallel groups; the wls host timing as in s23 c12/c13.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c8; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((500-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY' $R/$name.log | tail -1)"; }
( run testing_dpotrf ./testing/testing_dpotrf --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_host ./testing/testing_host ) &
( run testing_wls ./testing/testing_wls --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick ) &
( run testing_shost_bounds ./testing/testing_shost_bounds; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run testing_dpftrf_quick ./testing/testing_dpftrf --suite --quick; run testing_spftrf_quick ./testing/testing_spftrf --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1)
  [ -z "$line" ] && { echo "$(basename $l .log): no SUMMARY"; f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
grep -h "FAILED" -A1 $R/*.log | head -20
for pr in d s; do
  timeout $((590-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec $pr --runs 3 --wls-only --shapes 16384x16384 > $R/wls_$pr.log 2>&1
  echo "wls $pr t=$((SECONDS-S))"; grep "wls" $R/wls_$pr.log | cut -c1-150
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c8.tgz -C $OUT c8 && rm -rf $R
