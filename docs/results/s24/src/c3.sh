#!/bin/bash
# session 24, call 3: syrk_diag with the copies of full stages free of the column test (new)
# against HEAD's kernel linked into a second bench_syrk_diag (old), d and s, two rounds,
# alternating; ncu of the new double kernel at 4096 x 65536 at the card's own clocks.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 lib benchmarks/bench_syrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for r in 1 2; do
  for ab in old new; do
    b=./benchmarks/bench_syrk_diag; [ $ab = old ] && b=./build/bench_syrk_diag_old
    timeout $((480-SECONDS)) $b --prec ds --runs 5 > $R/bench_${ab}_$r.log 2>&1
    echo "== $ab round $r rc=$? t=$((SECONDS-S))"; grep -vE '^$|^#' $R/bench_${ab}_$r.log | cut -c1-112
  done
done
timeout $((580-SECONDS)) ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --launch-count 1 -k regex:syrk_diag_kernel --launch-skip 3 ./benchmarks/bench_syrk_diag --prec d --sizes 4096:65536 --runs 3 > $R/ncu_syrk_new.log 2>&1
echo "== ncu rc=$? t=$((SECONDS-S))"; grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|Executed Ipc Active|Warp Cycles Per Issued" $R/ncu_syrk_new.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
