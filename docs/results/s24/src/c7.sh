#!/bin/bash
# session 24, call 7: double syrk_diag with the barrier before each stage's last k-step (new:
# stage kt+1 scaled by its own copiers in steps 4-5 of stage kt, d one stage ahead in a ring of
# four) against c6's final kernel (mid, built with -DGCHOL_SYRK_CROSS=0), two rounds,
# alternating; testing_dsyrk_diag --suite and memcheck of its quick suite on new; racecheck of
# small table cases (several tiles, a partial stage, split n); ncu of new at 4096 x 65536.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c7; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag testing/testing_dsyrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./testing/testing_dsyrk_diag --suite > $R/dsyrk_diag_suite.log 2>&1
echo "== dsyrk_diag suite rc=$? t=$((SECONDS-S)): $(tail -1 $R/dsyrk_diag_suite.log)"; grep -E "FAILED" $R/dsyrk_diag_suite.log | head -5
for r in 1 2; do
  for ab in mid new; do
    b=./benchmarks/bench_syrk_diag; [ $ab = mid ] && b=./build/bench_syrk_diag_mid
    timeout $((400-SECONDS)) $b --prec d --runs 5 > $R/bench_${ab}_$r.log 2>&1
    echo "== $ab round $r rc=$? t=$((SECONDS-S))"; grep -vE '^$|^#' $R/bench_${ab}_$r.log | cut -c1-112
  done
done
timeout $((440-SECONDS)) ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --launch-count 1 -k regex:syrk_diag_kernel --launch-skip 3 ./benchmarks/bench_syrk_diag --prec d --sizes 4096:65536 --runs 3 > $R/ncu_syrk_new.log 2>&1
echo "== ncu rc=$? t=$((SECONDS-S))"; grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|Executed Ipc Active" $R/ncu_syrk_new.log
timeout $((520-SECONDS)) compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsyrk_diag --suite --quick > $R/memcheck.log 2>&1
echo "== memcheck rc=$? t=$((SECONDS-S)): $(grep 'ERROR SUMMARY' $R/memcheck.log | tail -1) / $(grep -E '^SUMMARY' $R/memcheck.log | tail -1)"
timeout $((590-SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_dsyrk_diag -m 200,300 -n 100,333,3000 --niter 1 > $R/racecheck.log 2>&1
echo "== racecheck rc=$? t=$((SECONDS-S)): $(grep -E 'RACECHECK SUMMARY|hazard' $R/racecheck.log | tail -2)"; grep -E " ok| FAILED" $R/racecheck.log | head -8
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
