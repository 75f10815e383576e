#!/bin/bash
# session 17, call 2: the rotation through shared memory (one read and one write per element) against
# the three reversals of call 1 (rotbench, both methods, GPU host test of both); pftrf 'U' phase by phase
# (pfphase: T,U / N,U realigned / N,U stored); quick pftrf suites; bench_pftrf d and s, all four variants.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; grep -E 'rotate_columns|FAILED|SUMMARY' $R/testing_host.log
nvcc -O2 -arch=sm_90 -o /tmp/rotbench docs/results/s17/src/rotbench.cu lib/libgchol.a -lcublasLt -lcublas && /tmp/rotbench | tee $R/rotbench.log
for p in d s; do timeout 120 ./testing/testing_${p}pftrf --suite --quick > $R/quick_${p}pftrf.log 2>&1; echo "${p}pftrf --suite --quick rc=$? $(tail -1 $R/quick_${p}pftrf.log) t=$((SECONDS-S))"; grep FAILED $R/quick_${p}pftrf.log | head -5; done
nvcc -O2 -arch=sm_90 -Iinclude -Isrc -o /tmp/pfphase docs/results/s17/src/pfphase.cu lib/libgchol.a -lcublasLt -lcublas && timeout 120 /tmp/pfphase | tee $R/pfphase.log
echo "pfphase t=$((SECONDS-S))"
for p in d s; do
timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-110
done
rm -f $R/build.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
