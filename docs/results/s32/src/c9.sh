#!/bin/bash
# session 32, call 9: testing_pftrf after its last change (the large cases no longer allocate
# and copy an unused LAPACKE reference): the dpftrf full suite alone, the quick spftrf suite.
source docs/results/call_common.sh c9 lib testing/testing_dpftrf testing/testing_spftrf
run testing_dpftrf --limit 560 ./testing/testing_dpftrf --suite
grep -h "n=18436\|suite time" $R/testing_dpftrf.log
run testing_spftrf_quick --limit 590 ./testing/testing_spftrf --suite --quick
finish
