#!/bin/bash
# session 29, call 6: testing_dsposv with the residual check on the library's own residual
# (cuBLAS symv / symm, as src/sposv.c forms it) beside the CPU's: full suite, the table mode, and
# memcheck of the quick suite.
source docs/results/call_common.sh c6 lib testing/testing_dsposv
run testing_dsposv --limit 300 ./testing/testing_dsposv --suite
grep -E "gram|FAILED" $R/testing_dsposv.log | head -20
run table --limit 400 ./testing/testing_dsposv
tail -8 $R/table.log
run memcheck_dsposv --limit 560 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dsposv --suite --quick
grep -E "SUMMARY" $R/memcheck_dsposv.log
finish
