#!/bin/bash
# session 17, call 6 (final tree: realignment only in the fused form): quick d/s pftrf suites, the full dpftrf
# suite, bench_pftrf d at 4096 / 6144 / 8192 / 16384 (all four variants).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; echo "testing_host $(tail -1 $R/testing_host.log)"
for t in dpftrf spftrf; do timeout 60 ./testing/testing_$t --suite --quick > $R/quick_$t.log 2>&1; echo "$t --suite --quick rc=$? $(tail -1 $R/quick_$t.log) t=$((SECONDS-S))"; done
timeout 170 ./testing/testing_dpftrf --suite > $R/testing_dpftrf.log 2>&1; echo "dpftrf --suite rc=$? $(tail -1 $R/testing_dpftrf.log) t=$((SECONDS-S))"; grep FAILED $R/testing_dpftrf.log | head -5
timeout 60 ./benchmarks/bench_pftrf --sizes 4096,6144,8192,16384 --prec d --all-rfp --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-110
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
