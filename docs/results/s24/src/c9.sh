#!/bin/bash
# session 24, call 9: the host ?syrk_diag's C back in four parts beside the last block's product
# (full storage, m >= 8192; GCHOL_HOST_PARTS_FROM=1 in the tests' parts cases and the bounds
# tester's small-block cases). d/s syrk_diag suites, d/s host_bounds (both copy paths), wls, host
# in parallel; memcheck of the quick dsyrk_diag suite; then bench_syrk_diag_host, parts off
# (GCHOL_HOST_PARTS_FROM=1000000) / on, d and s, two rounds.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((330-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY|ERROR SUMMARY' $R/$name.log | tail -1)"; }
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite ) &
( run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick ) &
( run testing_shost_bounds ./testing/testing_shost_bounds; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run testing_wls ./testing/testing_wls --suite; run testing_host ./testing/testing_host ) &
( run memcheck_dsyrk_diag compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
p=0; f=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1)
  [ -z "$line" ] && { echo "$(basename $l .log): no SUMMARY"; f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed"
grep -h "FAILED" -A1 $R/*.log | head -20
for r in 1 2; do
  for ab in off on; do
    for pr in d s; do
      e=""; [ $ab = off ] && e="GCHOL_HOST_PARTS_FROM=1000000"
      timeout $((590-SECONDS)) env $e ./benchmarks/bench_syrk_diag_host --prec $pr --runs 3 --shapes 4096x65536,8192x32768,16384x16384 > $R/host_${pr}_${ab}_$r.log 2>&1
      echo "host $pr parts $ab $r t=$((SECONDS-S)):"; grep -E "^m x n|^  " $R/host_${pr}_${ab}_$r.log | cut -c1-100
    done
  done
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
