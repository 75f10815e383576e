#!/bin/bash
# session 26, call 11: the final commit (kernels and drivers byte-identical to c8's / c9's, after
# c10's revert): every GPU tester of make test, full suites, with memcheck of the quick dpotrf,
# spotrf and wls suites beside them (gpu_suite of call_common.sh).
source docs/results/call_common.sh c11 all
gpu_suite 470 dpotrf spotrf wls
finish
