#!/bin/bash
# session 6: racecheck of the final tiled kernel (outlined chain block, direct stores), both precisions and triangles
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L
for p in d s; do for u in L U; do
  timeout 110 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 200,700 --uplo $u --variant tiled --check > $OUT/rc_${p}_tiled_$u.log 2>&1
  echo "racecheck $p tiled $u rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/rc_${p}_tiled_$u.log | head -1) $(grep -cE ' ok$' $OUT/rc_${p}_tiled_$u.log) ok t=$((SECONDS-S))"
done; done
for p in d s; do
  timeout 110 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_${p}potrf -n 1500 --uplo L --variant left --nb 512 --recnb 512 --check > $OUT/rc_${p}_left_L.log 2>&1
  echo "racecheck $p left L (tiled panels) rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/rc_${p}_left_L.log | head -1) $(grep -cE ' ok$' $OUT/rc_${p}_left_L.log) ok t=$((SECONDS-S))"
done
