#!/bin/bash
# session 33, call 2: the same tree, every GPU tester of make test, full suites, memcheck of the
# quick dpotrf, spotrf and dsyrk_diag suites beside them.
source docs/results/call_common.sh c2 all
gpu_suite 450 dpotrf spotrf dsyrk_diag
finish
