#!/bin/bash
# session 10, call 3: single-precision pftrf with its block-column updates on the 3xTF32 syrk kernel across the RFP blocks: pftrf suites (both precisions, new nb = 1024 large-n section), memcheck of the spftrf quick suite, spotrf quick suite, pftrf at 16384 / 32768 in single (all four variants) against full spotrf and cuSOLVER in the same run
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for p in s d; do
  ./testing/testing_${p}pftrf --suite > $R/suite_${p}pftrf.log 2>&1; echo "suite ${p}pftrf: $(grep SUMMARY $R/suite_${p}pftrf.log) t=$((SECONDS-S))"
  grep -E "FAIL" $R/suite_${p}pftrf.log | head -5
done
grep -A3 "nb = 1024, large n" $R/suite_spftrf.log | head -4
./testing/testing_spotrf --suite --quick > $R/quick_spotrf.log 2>&1; echo "quick spotrf: $(grep SUMMARY $R/quick_spotrf.log)"
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_spftrf --suite --quick > $R/memcheck_spftrf.log 2>&1
echo "memcheck spftrf: rc=$? $(grep SUMMARY $R/memcheck_spftrf.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_spftrf.log) t=$((SECONDS-S))"
./benchmarks/bench_pftrf --sizes 16384,32768 --prec s --all-rfp --form auto --csv $R/pftrf_s.csv > $R/pftrf_s.log 2>&1
grep -vE '^#|^$' $R/pftrf_s.log | cut -c1-120; echo "t=$((SECONDS-S))"
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
