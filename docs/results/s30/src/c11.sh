#!/bin/bash
# session 30, call 11: the final library (commit 306e222: the wide tiles from ld 18432 on every
# lower and upper update, nb 2048 / recnb 256 from 24576 in double): every GPU tester of make test,
# full suites; memcheck of the quick dpotrf, dpftrf and wls suites beside them.
source docs/results/call_common.sh c11 all
gpu_suite 470 dpotrf dpftrf wls
finish
