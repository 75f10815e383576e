#!/bin/bash
# session 17, call 1: pftrf 'N' (even n) on the realigned layout (leading dimension n, in-place
# column rotations there and back; kernels/rfp_realign.cu). Host test (GPU rotation against the
# CPU reference), rotation cost alone (rotbench), quick pftrf suites, then bench_pftrf d with the
# realignment on and off (GCHOL_RFP_REALIGN=0) in separate processes, and s with it on.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
./testing/testing_host > $R/testing_host.log 2>&1; grep -E 'rotate_columns|FAILED|SUMMARY' $R/testing_host.log
nvcc -O2 -arch=sm_90 -o /tmp/rotbench docs/results/s17/src/rotbench.cu lib/libgchol.a -lcublasLt -lcublas && /tmp/rotbench | tee $R/rotbench.log
for p in d s; do timeout 120 ./testing/testing_${p}pftrf --suite --quick > $R/quick_${p}pftrf.log 2>&1; echo "${p}pftrf --suite --quick rc=$? $(tail -1 $R/quick_${p}pftrf.log) t=$((SECONDS-S))"; grep FAILED $R/quick_${p}pftrf.log | head -5; done
timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --csv $R/pftrf_d_on.csv > $R/pftrf_d_on.log 2>&1
echo "== pftrf d realign on t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d_on.log | cut -c1-110
GCHOL_RFP_REALIGN=0 timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --csv $R/pftrf_d_off.csv > $R/pftrf_d_off.log 2>&1
echo "== pftrf d realign off t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d_off.log | cut -c1-110
timeout 150 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec s --all-rfp --csv $R/pftrf_s_on.csv > $R/pftrf_s_on.log 2>&1
echo "== pftrf s realign on t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_s_on.log | cut -c1-110
rm -f $R/build.log
