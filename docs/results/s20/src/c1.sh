#!/bin/bash
# session 20, call 1 (session 19's final tree, review fixes included): every tester of `make test`
# with its full suite, run in five parallel groups (same commands as testing/run_tests.sh), and
# memcheck/racecheck of the quick wls and dsposv suites beside them.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
T=$((570-SECONDS))
run() { # run NAME ARGS...
  name=$1; shift; timeout $T ./testing/$name "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
( run testing_dpftrf --suite ) &
( run testing_spftrf --suite ) &
( run testing_dpotrf --suite; run testing_dsposv --suite ) &
( run testing_spotrf --suite; run testing_wls --suite ) &
( run testing_dsyrk_diag --suite; run testing_ssyrk_diag --suite; run testing_host; run testing_host_stage ) &
( for tool in memcheck racecheck; do for e in testing_wls testing_dsposv; do
    timeout $T compute-sanitizer --tool $tool ./testing/$e --suite --quick > $R/${tool}_$e.log 2>&1; echo "rc=$?" >> $R/${tool}_$e.log
  done; done ) &
wait
echo "all t=$((SECONDS-S))"
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1); echo "$(basename $l .log): $line $(tail -1 $l)"
  [ -z "$line" ] && { f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
for l in $R/memcheck_*.log $R/racecheck_*.log; do echo "$(basename $l .log): $(grep -E '^SUMMARY' $l | tail -1) | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -l "FAILED" $R/testing_*.log | head
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
