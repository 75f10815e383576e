#!/bin/bash
# session 29, call 9: the final tree once more, through call_common.sh's new sweep and issue4_rows
# (the commands of call 5, now shared); testing_dsposv's full suite and table after column_ratio
# took the norm loop that backward_ratio and library_ratio had each written.
source docs/results/call_common.sh c9 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf testing/testing_dsposv
run testing_dsposv --limit 200 ./testing/testing_dsposv --suite
grep -E "n=4100 .*gram" $R/testing_dsposv.log
run table --limit 250 ./testing/testing_dsposv
tail -6 $R/table.log
sweep 420
issue4_rows 560
cp $R/*.csv $OUT/ 2>/dev/null
finish
