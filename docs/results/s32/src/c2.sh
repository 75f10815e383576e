#!/bin/bash
# session 32, call 2: RFP transr = 'T' blocks have ld about n / 2, so double's updates never took
# cublasLt's 128 x 128 tiles below n = 36864 (ld >= 18432 was the rule); full storage takes them
# from n = 18432. The tree now asks for them where the view's order or ld is >= 18432. A/B:
# bench_pftrf d at 24576 / 32768, every variant, the tree against the same library with the
# previous driver (HEAD~'s src/potrf_driver.c, carried as build/ab_old_potrf_driver.c), two
# rounds, alternating; then testing_dpftrf's full suite on the tree (with its new 'T' cases of
# order 18436) and the quick dpotrf suite.
source docs/results/call_common.sh c2 lib benchmarks/bench_pftrf testing/testing_dpftrf testing/testing_dpotrf
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
mkdir -p /tmp/ab/old
cp build/ab_old_potrf_driver.c /tmp/ab/old/potrf_driver.c
cc $CF -DGCHOL_PREC_D -Isrc -c /tmp/ab/old/potrf_driver.c -o /tmp/ab/old/potrf_driver_d.o || exit 1
cp lib/libgchol.a /tmp/ab/libold.a && ar r /tmp/ab/libold.a /tmp/ab/old/potrf_driver_d.o
cc $CF -Ibenchmarks benchmarks/bench_pftrf.c benchmarks/bench_common.c -o /tmp/ab/bench_pftrf_old /tmp/ab/libold.a $LK || exit 1
for r in 1 2; do
  for c in new old; do
    b=./benchmarks/bench_pftrf; [ $c = old ] && b=/tmp/ab/bench_pftrf_old
    run pf_${c}_$r --limit 300 $b --sizes 24576,32768 --prec d --all-rfp --form auto --csv $R/pf_${c}_$r.csv
    echo "$c r$r:"; grep -E '^ +[0-9]+ d [NT] [LU] ' $R/pf_${c}_$r.log | awk '{printf "  %s %s%s pf %s po %s r %s %s\n", $1,$3,$4,$6,$9,$15,$NF}' | paste -d' ' - - - -
  done
done
run testing_dpftrf --limit 580 ./testing/testing_dpftrf --suite
grep -E "18436" $R/testing_dpftrf.log | head -4
run testing_dpotrf_quick --limit 590 ./testing/testing_dpotrf --suite --quick
finish
