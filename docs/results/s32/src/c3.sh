#!/bin/bash
# session 32, call 3: the wide tiles for the updates whose operands are stored unlike each other
# (RFP only: e.g. 'T''s second half, C in block 22 as stored, A and B in block 21 transposed),
# which the tree leaves to cublasDgemm. A/B: an alternate driver with GCHOL_WIDE_TILE_ANY_OPS=1
# against the tree (c2's), bench_pftrf d at 24576 / 32768, every variant, two rounds,
# alternating; then testing_dpftrf's full suite linked against the alternate.
source docs/results/call_common.sh c3 lib benchmarks/bench_pftrf testing/testing_dpftrf
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
mkdir -p /tmp/ab/any
cc $CF -DGCHOL_PREC_D -DGCHOL_WIDE_TILE_ANY_OPS=1 -c src/potrf_driver.c -o /tmp/ab/any/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libany.a && ar r /tmp/ab/libany.a /tmp/ab/any/potrf_driver_d.o
cc $CF -Ibenchmarks benchmarks/bench_pftrf.c benchmarks/bench_common.c -o /tmp/ab/bench_pftrf_any /tmp/ab/libany.a $LK || exit 1
cc $CF -DGCHOL_PREC_D -Itesting testing/testing_pftrf.c testing/testing_common.c -o /tmp/ab/testing_dpftrf_any /tmp/ab/libany.a $LK || exit 1
for r in 1 2; do
  for c in tree any; do
    b=./benchmarks/bench_pftrf; [ $c = any ] && b=/tmp/ab/bench_pftrf_any
    run pf_${c}_$r --limit 300 $b --sizes 24576,32768 --prec d --all-rfp --form auto --csv $R/pf_${c}_$r.csv
    echo "$c r$r:"; grep -E '^ +[0-9]+ d [NT] [LU] ' $R/pf_${c}_$r.log | awk '{printf "  %s %s%s pf %s po %s r %s %s\n", $1,$3,$4,$6,$9,$15,$NF}' | paste -d' ' - - - -
  done
done
run testing_dpftrf_any --limit 580 /tmp/ab/testing_dpftrf_any --suite
finish
