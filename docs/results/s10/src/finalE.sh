#!/bin/bash
# session 10, final call E: make test on the last commit (after the syrk_diag refactor, whose PTX is identical, and the testing_host helper)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/finalE; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
make test > $R/test.log 2>&1; grep -E "^(=== |SUMMARY)|passed,|FAILED" $R/test.log | tail -n 20; echo "test t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/finalE.tgz -C $OUT finalE && rm -rf $R
