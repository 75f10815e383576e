#!/bin/bash
# session 24, call 4: double syrk_diag in three builds, two rounds, alternating: old (HEAD's
# kernel), mid (c3's: full stages' copies without the column test), new (mid + 24-column
# stages, four in flight: the copies get two stages to land); testing_dsyrk_diag --suite on
# new; ncu of new at 4096 x 65536 at the card's own clocks.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag testing/testing_dsyrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./testing/testing_dsyrk_diag --suite > $R/dsyrk_diag_suite.log 2>&1
echo "== dsyrk_diag suite rc=$? t=$((SECONDS-S)): $(tail -1 $R/dsyrk_diag_suite.log)"; grep -E "FAILED" $R/dsyrk_diag_suite.log | head -5
for r in 1 2; do
  for ab in old mid new; do
    b=./build/bench_syrk_diag_$ab; [ $ab = new ] && b=./benchmarks/bench_syrk_diag
    timeout $((480-SECONDS)) $b --prec d --runs 5 > $R/bench_${ab}_$r.log 2>&1
    echo "== $ab round $r rc=$? t=$((SECONDS-S))"; grep -vE '^$|^#' $R/bench_${ab}_$r.log | cut -c1-112
  done
done
timeout $((580-SECONDS)) ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --launch-count 1 -k regex:syrk_diag_kernel --launch-skip 3 ./benchmarks/bench_syrk_diag --prec d --sizes 4096:65536 --runs 3 > $R/ncu_syrk_new.log 2>&1
echo "== ncu rc=$? t=$((SECONDS-S))"; grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|Executed Ipc Active|Warp Cycles Per Issued" $R/ncu_syrk_new.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
