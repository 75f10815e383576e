#!/bin/bash
# session 31, call 10: the tree as it lands (HEAD; the library as call 5 ran it but for a
# comment in src/options.c, and the split-panel experiment added and removed again): every GPU
# tester of make test, full suites, memcheck of the quick dpotrf, spotrf and wls suites.
source docs/results/call_common.sh c10 all
gpu_suite 450 dpotrf spotrf wls
finish
