#!/bin/bash
# session 9, call 10: the swap kernel's masked path refactored (one store helper, one "wanted" rule for loads and stores): checks and GB/s, potrf and pftrf suites, memcheck of the potrf quick suites, single U timing at 8192 / 16384
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c10; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./scratch/s9/swapbench2 > $R/swapbench2.log 2>&1; grep -E "checks|n=8192 lda=n\+0|n=32768 lda=n\+[01]" $R/swapbench2.log
for t in spotrf dpotrf spftrf dpftrf; do ./testing/testing_$t --suite > $R/suite_$t.log 2>&1; echo "suite $t: $(grep SUMMARY $R/suite_$t.log) t=$((SECONDS-S))"; grep FAILED $R/suite_$t.log | head -3; done
for t in spotrf dpotrf; do timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$t --suite --quick > $R/memcheck_$t.log 2>&1; echo "memcheck $t: rc=$? $(grep SUMMARY $R/memcheck_$t.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$t.log)"; done
./benchmarks/bench_potrf -n 8192,16384 --prec s --uplo LU --niter 5 > $R/bench_s.log 2>&1; grep -E '^ *s +[0-9]+ [LU] ' $R/bench_s.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'
echo "done t=$((SECONDS-S))"
tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
