#!/bin/bash
# session 19, call 3 (final library code: dswls with the stall test): make test (every tester, full
# suites, testing_wls included).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout $((585-SECONDS)) make test > $R/test.log 2>&1; echo "make test rc=$?"; grep -E "^(=== |SUMMARY)|passed,|FAILED|suite time" $R/test.log | tail -n 40; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
