#!/bin/bash
# session 8, call 15: K-major copies with one pointer step per copy (new) against a multiply per copy (prev); spotrf suite
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c15; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout 150 ./testing/testing_spotrf --suite > $R/test_spotrf.log 2>&1; echo "spotrf: $(grep SUMMARY $R/test_spotrf.log)"
for v in new prev new prev; do
  B=./benchmarks/bench_potrf; [ $v = prev ] && B=scratch/s8/bench_potrf_prev
  $B -n 8192,16384,32768 --prec s --uplo U --niter 5 > $R/u_$v$SECONDS.log 2>&1
  echo "$v: $(grep -hE '^s ' $(ls -t $R/u_$v*.log | head -1) | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; echo "t=$((SECONDS-S))"
tar czf $OUT/c15.tgz -C $OUT c15 && rm -rf $R
