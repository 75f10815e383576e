#!/bin/bash
# session 29, call 1: the lookahead timeline with today's driver (performance.md's picture dates
# from the fourth session): double lower 12288 / 16384 / 32768 and single lower 16384, lookahead
# on and off, per-operation CUDA event stamps (gchol_options_t.trace); bench_potrf beside it.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf benchmarks/timeline_potrf
for cfg in "d 16384" "d 12288" "s 16384" "d 32768"; do
  set -- $cfg
  run tl_$1$2 --limit 300 ./benchmarks/timeline_potrf -n $2 --prec $1 --uplo L --variant left --out $R/tl
  grep -v "events ->" $R/tl_$1$2.log
done
run bench --limit 420 ./benchmarks/bench_potrf -n 12288,16384 --prec d,s --uplo L --niter 5
grep -E '^ *[ds] +[0-9]+ ' $R/bench.log | head
cp $R/tl_*.csv $OUT/ 2>/dev/null
finish
