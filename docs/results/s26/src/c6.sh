#!/bin/bash
# session 26, call 6: potf2_panel in two halves (a bulk update of the second half between them)
# against HEAD (build/ab/bench_potrf_mem, build/ab/p9_head): p9 (potf2_panel alone, cycles, error);
# quick dpotrf / spotrf suites; chainprof; tiled sizes and blocked sizes (whose panels are tiled
# launches), both precisions and triangles, two rounds; racecheck s L / d L at 1000.
source docs/results/call_common.sh c6 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf
for v in new head; do b=./build/p9_new; [ $v = head ] && b=build/ab/p9_head; run p9_$v --limit 60 $b; echo "p9 $v:"; grep cycles $R/p9_$v.log; done
for p in d s; do run testing_${p}potrf_quick --limit 200 ./testing/testing_${p}potrf --suite --quick; done
run chainprof --limit 240 ./build/chainprof
grep -E "^(dL|dU|sL|sU) n= 1024" -A2 $R/chainprof.log | grep -E "^[ds][LU]|avg" | head -8
for r in 1 2; do for v in split mem; do b=./benchmarks/bench_potrf; [ $v = mem ] && b=build/ab/bench_potrf_mem
  run ab_${v}_$r --limit 400 $b -n 1024,1536,2048,3072,4096,6144,8192,16384 --prec ds --uplo LU --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for c in "s L" "d L"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
