#!/bin/bash
# session 20, call 4 (the final library): every tester of `make test` with its full suite in
# parallel groups (the same commands as testing/run_tests.sh, the shim's included), memcheck of
# the quick dsposv suite (potrs with the triangle upload, the host posv) and of the quick shim
# suite beside them; then bench_lapack_shim d and s alone (potrf, potrs, posv).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=2
T=$((470-SECONDS))
run() { name=$1; shift; timeout $T "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; }
( run testing_dpftrf ./testing/testing_dpftrf --suite ) &
( run testing_spftrf ./testing/testing_spftrf --suite ) &
( run testing_dpotrf ./testing/testing_dpotrf --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_wls ./testing/testing_wls --suite ) &
( run testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite; run testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite; run testing_host ./testing/testing_host; run testing_host_stage ./testing/testing_host_stage ) &
( run testing_lapack_shim ./testing/testing_lapack_shim --suite; run testing_preload sh testing/testing_preload.sh; run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback ) &
( run memcheck_dsposv compute-sanitizer --tool memcheck ./testing/testing_dsposv --suite --quick; run memcheck_lapack_shim compute-sanitizer --tool memcheck ./testing/testing_lapack_shim --suite --quick ) &
wait
echo "tests t=$((SECONDS-S))"
p=0; f=0; s=0
for l in $R/testing_*.log; do
  line=$(grep '^SUMMARY passed=' $l | tail -1); echo "$(basename $l .log): $line $(tail -1 $l)"
  [ -z "$line" ] && { f=$((f+1)); continue; }
  p=$((p+$(echo $line | sed 's/.*passed=\([0-9]*\).*/\1/'))); f=$((f+$(echo $line | sed 's/.*failed=\([0-9]*\).*/\1/'))); s=$((s+$(echo $line | sed 's/.*skipped=\([0-9]*\).*/\1/')))
done
echo "TOTAL $p passed, $f failed, $s skipped"
for l in $R/memcheck_*.log; do echo "$(basename $l .log): $(grep -E '^SUMMARY' $l | tail -1) | $(grep -E 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/testing_*.log | head -20
unset OPENBLAS_NUM_THREADS
for pr in d s; do
  timeout $((590-SECONDS)) ./benchmarks/bench_lapack_shim --prec $pr --n 128,512,1024,2048,4096,8192,16384 --csv $R/bench_lapack_shim_$pr.csv > $R/bench_lapack_shim_$pr.log 2>&1; echo "bench $pr rc=$? t=$((SECONDS-S))"
  cat $R/bench_lapack_shim_$pr.log
done
rm -f $R/build.log; gzip -9 -n $R/testing_*.log $R/memcheck_*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
