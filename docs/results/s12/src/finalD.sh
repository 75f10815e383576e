#!/bin/bash
# session 12, final call D (final tree, 8e03ff3 + the A/B switch removed): make test; memcheck of the
# dpotrf and spotrf quick suites.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalD; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
for t in dpotrf spotrf; do timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1
  echo "memcheck $t quick: rc=$? $(grep SUMMARY $R/memcheck_$t.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log) t=$((SECONDS-S))"; done
rm -f $R/build.log
tar czf $OUT/finalD.tgz -C $OUT finalD && rm -rf $R
