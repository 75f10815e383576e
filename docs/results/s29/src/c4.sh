#!/bin/bash
# session 29, call 4: the final tree (src/ and kernels/ as at 4df8eab, which s28 c8 / c9 ran):
# every GPU tester of make test, full suites; memcheck of the quick spotrf, dpotrf and wls suites
# beside them.
source docs/results/call_common.sh c4 all
gpu_suite 470 spotrf dpotrf wls
finish
