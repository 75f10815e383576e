#!/bin/bash
# session 21, call 5: EXPERIMENT. Leaf panels of the blocked driver with only their diagonal
# block on the tiled kernel and the rows below solved by op_trsm (gemm-based recursion, tile
# trsm leaves), switched on by GCHOL_PANEL_TRSM_MIN_M=0, against the default (the tiled kernel's
# workers solve the rows below). Correctness first (quick potrf suites with the switch on), then
# bench_potrf, auto variant, lower, median of 5, the two builds' processes alternating, 2 rounds.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((585-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
run quick_dpotrf_on env GCHOL_PANEL_TRSM_MIN_M=0 ./testing/testing_dpotrf --suite --quick
run quick_spotrf_on env GCHOL_PANEL_TRSM_MIN_M=0 ./testing/testing_spotrf --suite --quick
N=8192,12288,16384,24576,32768
for r in 1 2; do
  run bench_d_off_$r ./benchmarks/bench_potrf -n $N --prec d --uplo L --variant auto --niter 5
  run bench_d_on_$r env GCHOL_PANEL_TRSM_MIN_M=0 ./benchmarks/bench_potrf -n $N --prec d --uplo L --variant auto --niter 5
done
for r in 1; do
  run bench_s_off_$r ./benchmarks/bench_potrf -n 8192,16384,32768 --prec s --uplo L --variant auto --niter 5
  run bench_s_on_$r env GCHOL_PANEL_TRSM_MIN_M=0 ./benchmarks/bench_potrf -n 8192,16384,32768 --prec s --uplo L --variant auto --niter 5
done
grep -h FAILED $R/quick_*.log | head
for l in $R/bench_*.log; do echo "== $(basename $l .log)"; grep -E '^ *[ds] +[0-9]+ [LU] auto' $l | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'; done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
