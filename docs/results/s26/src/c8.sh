#!/bin/bash
# session 26, call 8 (the final tree): every GPU tester of make test, full suites, with memcheck of
# the quick dsyrk_diag, dhost_bounds and wls suites beside them, then the shim's runs alone
# (docs/results/call_common.sh's gpu_suite; its first run on the device).
source docs/results/call_common.sh c8 all
gpu_suite 470
finish
