#!/bin/bash
# session 32, call 4: the final library (c2's and c3's driver change): every GPU tester of
# make test, full suites, memcheck of the quick dpotrf, dpftrf and spotrf suites beside them.
source docs/results/call_common.sh c4 all
gpu_suite 450 dpotrf dpftrf spotrf
finish
