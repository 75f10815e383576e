#!/bin/bash
# session 31, call 5: the final tree (the table's new double row 27648-30719): every GPU tester
# of make test, full suites, memcheck of the quick dpotrf, spotrf and dsyrk_diag suites beside
# them; then issue 3's sweep once more, alone on the GPU.
source docs/results/call_common.sh c5 all
gpu_suite 450 dpotrf spotrf dsyrk_diag
sweep 595
cp $R/*.csv $OUT/ 2>/dev/null
finish
