#!/bin/bash
# session 33, call 1: the landing library of the thirty-second session (no library change
# since), re-measured on today's card: issue 3's sweep alone on the GPU, then issue 4's rows.
source docs/results/call_common.sh c1 all
sweep 400
issue4_rows 590
cp $R/*.csv $OUT/ 2>/dev/null
finish
