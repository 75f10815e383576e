#!/bin/bash
# session 8, call 11: upper's K-major update kernel reading two k-steps per 16-byte load (pairs) against one 8-byte load per step (k1)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c11; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout 150 ./testing/testing_spotrf --suite > $R/test_spotrf.log 2>&1; echo "spotrf: $(grep SUMMARY $R/test_spotrf.log)"; grep FAILED $R/test_spotrf.log | head -3 | cut -c1-200
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_spotrf -n 2500 --uplo U --variant left --lookahead on --nb 1024 --recnb 512 --niter 1 > $R/racecheck_U.log 2>&1; echo "racecheck U rc=$? $(grep 'RACECHECK SUMMARY' $R/racecheck_U.log)"
for v in pairs k1 pairs k1; do
  B=./benchmarks/bench_potrf; [ $v = k1 ] && B=scratch/s8/bench_potrf_k1
  $B -n 8192,16384,24576,40960 --prec s --uplo LU --niter 3 > $R/sweep_$v$SECONDS.log 2>&1
  echo "== $v"; grep -E "^s " $R/sweep_$v*.log | tail -8 | cut -c1-100
  echo "t=$((SECONDS-S))"
done
tar czf $OUT/c11.tgz -C $OUT c11 && rm -rf $R
