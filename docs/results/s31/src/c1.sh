#!/bin/bash
# session 31, call 1: the tree as the thirtieth session left it (3952521; its last two library
# commits, gchol_options_resolve_host's host nb and the dead condition dropped from it, had not
# run the whole suite): every GPU tester of make test, full suites, memcheck of the quick
# spotrf, dpotrf and wls suites beside them.
source docs/results/call_common.sh c1 all
gpu_suite 450 spotrf dpotrf wls
finish
