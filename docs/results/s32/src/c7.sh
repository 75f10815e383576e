#!/bin/bash
# session 32, call 7: the landing tree (the library as c4 ran it; testing_pftrf's order-18436
# cases as c6 ran them): every GPU tester of make test, full suites, memcheck of the quick
# dpotrf, dpftrf and wls suites beside them.
source docs/results/call_common.sh c7 all
gpu_suite 450 dpotrf dpftrf wls
finish
