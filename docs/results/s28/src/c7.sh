#!/bin/bash
# session 28, call 7: the final tree (c3's kernels; helper_single names its accumulator through
# TileAccOf<float>, the same PTX). The issue-3 sweep again (c4's had single lower 1024 and its
# cuSOLVER both ~15-25% slow at that moment); bitcmp on / off; racecheck s L / s U / d U.
source docs/results/call_common.sh c7 all
run bench_sweep --limit 200 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste -d' ' - - - -
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
run bitcmp_on --limit 300 ./build/bitcmp28; run bitcmp_off --limit 330 env GCHOL_TILED_HELPER=0 ./build/bitcmp28
echo "bitcmp on vs off: defined part differs in $(diff <(cut -d' ' -f1-6 $R/bitcmp_on.log) <(cut -d' ' -f1-6 $R/bitcmp_off.log) | grep -c '^<') of $(wc -l < $R/bitcmp_on.log), whole in $(diff $R/bitcmp_on.log $R/bitcmp_off.log | grep -c '^<')"
for c in "s L" "s U" "d U"; do set -- $c
  run racecheck_$1$2 --limit 560 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
finish
