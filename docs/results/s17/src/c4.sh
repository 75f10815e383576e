#!/bin/bash
# session 17, call 4: the recursive trsm's leaf on gchol's tile trsm kernel (trsm_rlt.cu, now with its
# own leading dimension and orientation for L and for B) where there are >= 1024 right-hand sides:
# trsmbench (k = 2304..16384, both of pftrf 'U''s solves, kernel leaf against cuBLAS leaves, accuracy
# against cublasDtrsm), pfphase, quick potrf / pftrf suites, bench_pftrf d and s (all four variants).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
nvcc -O2 -std=c++17 -arch=sm_90 -Iinclude -Isrc -o /tmp/trsmbench docs/results/s17/src/trsmbench.cu lib/libgchol.a -lcublasLt -lcublas && timeout 150 /tmp/trsmbench | tee $R/trsmbench.log
echo "trsmbench t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; grep -E 'FAILED|SUMMARY' $R/testing_host.log
for t in dpotrf spotrf dpftrf spftrf; do timeout 120 ./testing/testing_$t --suite --quick > $R/quick_$t.log 2>&1; echo "$t --suite --quick rc=$? $(tail -1 $R/quick_$t.log) t=$((SECONDS-S))"; grep FAILED $R/quick_$t.log | head -5; done
nvcc -O2 -arch=sm_90 -Iinclude -Isrc -o /tmp/pfphase docs/results/s17/src/pfphase.cu lib/libgchol.a -lcublasLt -lcublas && timeout 120 /tmp/pfphase | tee $R/pfphase.log
for p in d s; do
timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-110
done
rm -f $R/build.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
