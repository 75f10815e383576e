#!/bin/bash
# session 28, call 8: the final tree, every GPU tester of make test, full suites; memcheck of the
# quick spotrf, dpotrf and wls suites beside them.
source docs/results/call_common.sh c8 all
gpu_suite 470 spotrf dpotrf wls
finish
