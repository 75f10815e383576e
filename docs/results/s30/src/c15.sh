#!/bin/bash
# session 30, call 15: the final tree (testing_potrf's user-stream case now uploads on that stream;
# library as 9a8a96c): every GPU tester of make test, full suites, memcheck of the quick spotrf,
# dpotrf and wls suites beside them; then testing_spotrf and testing_dpotrf --suite once more, the
# two side by side.
source docs/results/call_common.sh c15 all
gpu_suite 420 spotrf dpotrf wls
( run again_spotrf --limit 585 ./testing/testing_spotrf --suite ) &
( run again_dpotrf --limit 585 ./testing/testing_dpotrf --suite ) &
wait
grep -h FAILED $R/again_*.log | head -5
finish
