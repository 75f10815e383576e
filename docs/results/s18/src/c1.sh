#!/bin/bash
# session 18, call 1 (tree b35b3eb, session 17's final tree): make test (every tester, full suites),
# the first GPU run of session 17's post-c6 commits and new tests.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout 545 make test > $R/test.log 2>&1; echo "make test rc=$?"; grep -E "^(=== |SUMMARY)|passed,|FAILED|suite time" $R/test.log | tail -n 30; echo "test t=$((SECONDS-S))"
cp testing/logs/*.log $R/ 2>/dev/null
rm -f $R/build.log; gzip -9 -n $R/*.log
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
