#!/bin/bash
# session 23, call 13: the final tree (c12's + slots unpacked as soon as their copies land).
# Every tester that src/potrf_host.c reaches, full suites, in parallel groups (d/s potrf, dsposv,
# wls, d/s host_bounds both copy paths, host); then the shim's runs alone (its out-of-memory
# case takes all but 64 MB of the free device memory: run beside other testers in c12, memory
# they freed let the call it expects to fail run on the GPU); then the host potrf from pinned
# memory and the single wls host, as in c12.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c13; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((540-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
( run testing_dpotrf ./testing/testing_dpotrf --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_host ./testing/testing_host ) &
( run testing_dsposv ./testing/testing_dsposv --suite; run testing_wls ./testing/testing_wls --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick; run memcheck_dhost_bounds compute-sanitizer --tool memcheck ./testing/testing_dhost_bounds --quick ) &
( run testing_shost_bounds ./testing/testing_shost_bounds; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
wait
unset OPENBLAS_NUM_THREADS
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
echo "memcheck: $(grep 'ERROR SUMMARY' $R/memcheck_dhost_bounds.log | tail -1)"
grep -h "FAILED" -A1 $R/*.log | head -20
timeout $((585-SECONDS)) ./benchmarks/bench_potrf -n 8192,16384 --prec ds --uplo LU --host-pinned --niter 5 > $R/potrf_pinned.log 2>&1
echo "potrf pinned t=$((SECONDS-S)): $(grep 'host' $R/potrf_pinned.log | awk '{printf "%s%s%s=%s ", $1,$2,$3,$9}')"
timeout $((592-SECONDS)) ./benchmarks/bench_syrk_diag_host --prec s --runs 5 --wls-only --shapes 16384x16384 > $R/wls_s.log 2>&1
echo "wls s t=$((SECONDS-S))"; grep "wls" $R/wls_s.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c13.tgz -C $OUT c13 && rm -rf $R
