#!/bin/bash
# session 32, call 6: issue 4's benchmarks on the final library (alone on the GPU), then the
# dpftrf and spftrf full suites side by side as gpu_suite runs them (OPENBLAS_NUM_THREADS=2),
# with the order-18436 cases in the 'L' variants only (c5: four cases pushed dpftrf past 400 s).
source docs/results/call_common.sh c6 all
issue4_rows 300
export OPENBLAS_NUM_THREADS=2
( run testing_dpftrf --limit 595 ./testing/testing_dpftrf --suite ) &
( run testing_spftrf --limit 595 ./testing/testing_spftrf --suite ) &
wait
unset OPENBLAS_NUM_THREADS
tally
grep -h "n=18436\|suite time" $R/testing_?pftrf.log
cp $R/*.csv $OUT/ 2>/dev/null
finish
