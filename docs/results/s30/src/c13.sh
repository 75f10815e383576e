#!/bin/bash
# session 30, call 13: the final tree (commit 9a8a96c: the helper loops' shared HelperCtx, PTX
# identical to 306e222's): every GPU tester of make test, full suites; memcheck of the quick
# spotrf, dpotrf and wls suites beside them.
source docs/results/call_common.sh c13 all
gpu_suite 470 spotrf dpotrf wls
finish
