#!/bin/bash
# session 32, call 5: c4's one miss (testing_dpftrf stopped at 450 s inside its new order-18436
# cases, whose LAPACKE reference factor and Gram matrix cost O(n^3) on 2 CPU threads) with the
# cases now on a rank-512 Gram matrix + MU I and checked by the residual alone: the dpftrf and
# spftrf full suites side by side, as gpu_suite runs them (OPENBLAS_NUM_THREADS=2); then issue
# 3's sweep, alone on the GPU.
source docs/results/call_common.sh c5 all
export OPENBLAS_NUM_THREADS=2
( run testing_dpftrf --limit 400 ./testing/testing_dpftrf --suite ) &
( run testing_spftrf --limit 400 ./testing/testing_spftrf --suite ) &
wait
unset OPENBLAS_NUM_THREADS
tally
grep -h "n=18436" $R/testing_?pftrf.log
sweep 595
cp $R/*.csv $OUT/ 2>/dev/null
finish
