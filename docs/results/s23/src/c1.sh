#!/bin/bash
# session 23, call 1: the new guard-page tester (every host-memory routine on
# arrays of LAPACK's extent, both ends, both copy paths), testing_wls after the
# least squares' C download moved beside the factorization, memcheck of the
# quick wls suite; then an A/B of that move (GCHOL_AB_WLS_C_AFTER=1: the old
# path), alternating processes, median of 5 each.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
make -j16 lib testing/testing_dhost_bounds testing/testing_shost_bounds testing/testing_wls benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((420-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
export OPENBLAS_NUM_THREADS=4
( run dhost_bounds ./testing/testing_dhost_bounds; run dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick ) &
( run shost_bounds ./testing/testing_shost_bounds; run shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run wls ./testing/testing_wls --suite ) &
( run memcheck_wls_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick ) &
wait
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" $R/*.log | head -20
unset OPENBLAS_NUM_THREADS
for round in 1 2; do
  for ab in old new; do
    if [ $ab = old ]; then export GCHOL_AB_WLS_C_AFTER=1; else unset GCHOL_AB_WLS_C_AFTER; fi
    timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec d --runs 5 --wls-only > $R/ab_d_${ab}_$round.log 2>&1
    echo "d $ab round $round t=$((SECONDS-S))"; grep "wls host" $R/ab_d_${ab}_$round.log | awk '{print "   ", $0}'
  done
done
for ab in old new; do
  if [ $ab = old ]; then export GCHOL_AB_WLS_C_AFTER=1; else unset GCHOL_AB_WLS_C_AFTER; fi
  timeout $((590-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec s --runs 5 --wls-only > $R/ab_s_${ab}.log 2>&1
  echo "s $ab t=$((SECONDS-S))"; grep "wls host" $R/ab_s_${ab}.log | awk '{print "   ", $0}'
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
