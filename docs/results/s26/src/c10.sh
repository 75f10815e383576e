#!/bin/bash
# session 26, call 10: the chain block's poll of the next step's flags moved into the panel's last
# inner block (potf2_panel's hook), by warp 4 (idle there): acquire load (the tree) or relaxed load
# plus an acquire fence after the panel (build/ab/*_relaxed, -DGCHOL_AB_POLL_RELAXED), against HEAD
# (build/ab/bench_potrf_head: the poll after the panel, by warp 1). Quick dpotrf / spotrf suites
# of both forms; chainprof of both; tiled sizes, both precisions and triangles, two rounds;
# racecheck s L / d U at 1000 of both forms.
source docs/results/call_common.sh c10 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
tar xJf build/ab.tar.xz -C build; AB=build/ab
for p in d s; do run testing_${p}potrf_quick --limit 150 ./testing/testing_${p}potrf --suite --quick
  run testing_${p}potrf_quick_relaxed --limit 150 $AB/testing_${p}potrf_relaxed --suite --quick; done
run chainprof --limit 150 ./build/chainprof; run chainprof_relaxed --limit 150 $AB/chainprof_relaxed
for v in chainprof chainprof_relaxed; do echo "== $v"; grep -E "^(dL|dU|sL|sU) n= 1024" -A2 $R/$v.log | grep -E "^[ds][LU]|avg" | head -8; done
for r in 1 2; do for v in acq relaxed head; do b=./benchmarks/bench_potrf; [ $v != acq ] && b=$AB/bench_potrf_$v
  run ab_${v}_$r --limit 420 $b -n 1024,1536,2048,3072,4096 --prec ds --uplo LU --variant tiled --niter 9
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] tiled' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for c in "s L" "d U"; do set -- $c
  run racecheck_$1$2 --limit 540 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1
  run racecheck_$1$2_relaxed --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 $AB/testing_$1potrf_relaxed -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
