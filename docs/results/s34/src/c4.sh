#!/bin/bash
# session 34, call 4: the landing tree (library as in the thirty-second session; bench_syrk_diag
# with --gemm-shape), every GPU tester of make test, full suites; memcheck of the quick dpotrf,
# spotrf and dsyrk_diag suites beside them.
source docs/results/call_common.sh c4 all
gpu_suite 450 dpotrf spotrf dsyrk_diag
finish
