#!/bin/bash
# session 30, call 6: double's block sizes again, now that every lower update from ld 18432 runs on
# cublasLt's 128 x 128 tiles (commit e6dd292, calls 1-4). The table (src/options.c): 1024 / 512
# below 20480, 1024 / 256 from 20480 (twenty-third session, on cuBLAS's tiles). Left-looking with
# lookahead, lower, every pair nb x recnb with recnb <= nb; median of 3; two rounds at 20480-32768,
# one at 40960.
source docs/results/call_common.sh c6 lib benchmarks/bench_potrf
for r in 1 2; do
  run nb_$r --limit $((r * 210)) ./benchmarks/bench_potrf -n 20480,24576,32768 --prec d --uplo L \
      --variant left --lookahead on --nb 1024,1536,2048 --recnb 256,512 --niter 3
  grep -E '^ *d +[0-9]+ L ' $R/nb_$r.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - - - - -
done
run nb40 --limit 560 ./benchmarks/bench_potrf -n 40960 --prec d --uplo L \
    --variant left --lookahead on --nb 1024,1536 --recnb 256,512 --niter 3
grep -E '^ *d +[0-9]+ L ' $R/nb40.log | awk '{printf "%s %s/%s %s\n", $2,$6,$7,$9}' | paste -d' ' - - - -
head -3 $R/nb_1.log
finish
