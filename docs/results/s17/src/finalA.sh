#!/bin/bash
# session 17, final call A (tree of this commit): make test (every tester, full suites).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalA; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 540 make test > $R/test.log 2>&1; echo "make test rc=$?"; grep -E "^(=== |SUMMARY)|passed,|FAILED|suite time" $R/test.log | tail -n 30; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log; gzip -9 -n $R/*.log
tar czf $OUT/finalA.tgz -C $OUT finalA && rm -rf $R
