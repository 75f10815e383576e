#!/bin/bash
# session 30, call 7: call 6 found nb 2048 / recnb 256 faster than the table's 1024 / 256 at 24576
# (95.8 / 95.6 against 99.0 / 100.0 ms) and 32768 (222.7 / 222.4 against 231.2 / 227.2), the same
# at 20480, and did not try it at 40960. Here: wider nb and smaller recnb at 24576 / 32768, the
# boundary sizes 28672 / 36864, and 40960. Left, lookahead on, lower, median of 3.
source docs/results/call_common.sh c7 lib benchmarks/bench_potrf
pr() { grep -E '^ *d +[0-9]+ L ' $R/$1.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - - - - -; }
for r in 1 2; do
  run w_$r --limit $((r * 150)) ./benchmarks/bench_potrf -n 24576,32768 --prec d --uplo L \
      --variant left --lookahead on --nb 2048,3072 --recnb 128,256,512 --niter 3
  pr w_$r
done
run mid --limit 420 ./benchmarks/bench_potrf -n 28672,36864 --prec d --uplo L \
    --variant left --lookahead on --nb 1024,2048 --recnb 256 --niter 3
pr mid
for r in 1 2; do
  run b40_$r --limit $((420 + r * 80)) ./benchmarks/bench_potrf -n 40960 --prec d --uplo L \
      --variant left --lookahead on --nb 1024,2048,3072 --recnb 256 --niter 3
  pr b40_$r
done
finish
