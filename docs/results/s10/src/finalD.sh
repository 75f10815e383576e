#!/bin/bash
# session 10, final call D: the final tree exactly, after the review items (opt-in cache per kernel, gchol_options_resolve_host public, new suite cases): make test; memcheck of the spotrf and dpotrf quick suites; the single tiled range again (auto, L/U) to tie the sweep of final B to the committed kernel
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalD; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
grep -E "FAIL" $R/test.log | head -5
for t in spotrf dpotrf; do
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log) t=$((SECONDS-S))"
done
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192 --prec s --uplo LU --niter 5 --csv $R/tiled_s.csv > $R/tiled_s.log 2>&1
echo "s auto $(grep -E '^ *s +[0-9]+ [LU] ' $R/tiled_s.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}')"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log
tar czf $OUT/finalD.tgz -C $OUT finalD && rm -rf $R
