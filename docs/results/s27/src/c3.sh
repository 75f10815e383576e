#!/bin/bash
# session 27, call 3: what slows the helped chain block's potf2. chainprof with GCHOL_TILED_HELPER =
# 0 (chain alone), 1 (test_wait spins), 5 (try_wait), 13 (try_wait, relaxed arrivals: measurement
# only, not ordered), 7 (try_wait, told after potf2); tiled 1024 / 2048 for 0 / 1 / 5.
source docs/results/call_common.sh c3 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for m in 5; do for p in d s; do run testing_${p}potrf_quick_m$m --limit 150 env GCHOL_TILED_HELPER=$m ./testing/testing_${p}potrf --suite --quick; done; done
for m in 0 1 5 13 7; do
  run chainprof_m$m --limit 300 env GCHOL_TILED_HELPER=$m ./build/chainprof27
  grep -E "helper profile|chain alone" $R/chainprof_m$m.log | sed 's/helper profile, avg over [0-9]* steps (us)://' | cut -c1-220 | head -4
done
for r in 1 2; do for m in 0 1 5; do
  run ab_m${m}_$r --limit 450 env GCHOL_TILED_HELPER=$m ./benchmarks/bench_potrf -n 1024,2048 --prec ds --uplo LU --variant tiled --niter 7
  echo "m$m.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_m${m}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
finish
