#!/bin/bash
# session 32, call 1: which cublasLt algorithm the double updates take. The tree asks cublasLt
# for its first 128 x 128 tile algorithm from ld 18432 and leaves smaller ld to cublasDgemm. The
# fifteenth session's shape sums (isolated, docs/results/s15/c2/ltbench.log) had cublasLt's
# first heuristic choice 2.5% under cublasDgemm at 16384 (22.87 against 23.46 ms). Here, inside
# the factorization (d, auto nb), alternates of potrf_driver_d.o: the heuristic's first
# (GCHOL_WIDE_TILE_ID=0) and its first 64 x 64 (15) from ld 12288, against the tree, two
# rounds, alternating; then the quick dpotrf suite linked against the first alternate.
# It ran with tile_id.patch (beside this file) applied: the knob GCHOL_WIDE_TILE_ID.
source docs/results/call_common.sh c1 lib benchmarks/bench_potrf testing/testing_dpotrf
alt_driver first -DGCHOL_WIDE_TILE_LD=12288 -DGCHOL_WIDE_TILE_ID=0 || exit 1
alt_driver t64 -DGCHOL_WIDE_TILE_LD=12288 -DGCHOL_WIDE_TILE_ID=15 || exit 1
ALT_FIRST=/tmp/ab/libfirst.a
for r in 1 2; do
  for c in base first t64; do
    run b_${c}_$r --limit 520 $(binof $c) -n 12288,16384,32768 --prec d --uplo L --variant auto --niter 5
    run u_${c}_$r --limit 520 $(binof $c) -n 16384 --prec d --uplo U --variant auto --niter 5
    echo "$c r$r:"
    cat $R/b_${c}_$r.log $R/u_${c}_$r.log | grep -E '^ *d +[0-9]+ [LU] ' |
      awk '{printf "  %s%s %s/%s %s (cus %s) %s\n", $2,$3,$6,$7,$9,$12,$15}' | paste -d' ' - - - -
  done
done
# the alternate's correctness: the quick dpotrf suite linked against it
cc -O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -Itesting -I/usr/local/cuda/include -DGCHOL_PREC_D \
   testing/testing_potrf.c testing/testing_common.c -o /tmp/ab/testing_dpotrf_first $ALT_FIRST \
   -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread \
   -llapacke -lopenblas -lm -lstdc++ > $R/build_test_first.log 2>&1 &&
  run testing_dpotrf_first --limit 560 /tmp/ab/testing_dpotrf_first --suite --quick
finish
