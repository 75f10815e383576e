#!/bin/bash
# session 17, final call B (same tree as final A): racecheck and memcheck of testing_host (the rotation kernels, both
# methods), memcheck of the quick dpftrf suite; bench_pftrf d and s (all four variants, 16384 / 32768);
# bench_potrf d/s L/U at 1024 / 4096 / 16384 / 32768 against cuSOLVER (no potrf path changed this session).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/finalB; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for p in d s; do
timeout 100 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec $p --all-rfp --csv $R/pftrf_$p.csv > $R/pftrf_$p.log 2>&1
echo "== pftrf $p t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_$p.log | cut -c1-110
done
timeout 120 ./benchmarks/bench_potrf -n 1024,4096,16384,32768 --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_potrf.csv > $R/bench_potrf.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_potrf.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}' | paste - - - -; echo "potrf t=$((SECONDS-S))"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_host > $R/racecheck_host.log 2>&1
echo "racecheck testing_host: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_host.log) t=$((SECONDS-S))"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_host > $R/memcheck_host.log 2>&1
echo "memcheck testing_host: rc=$? $(grep SUMMARY $R/memcheck_host.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_host.log) t=$((SECONDS-S))"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpftrf --suite --quick > $R/memcheck_dpftrf.log 2>&1
echo "memcheck dpftrf quick: rc=$? $(grep SUMMARY $R/memcheck_dpftrf.log | head -1) | $(grep -E 'ERROR SUMMARY' $R/memcheck_dpftrf.log) t=$((SECONDS-S))"
rm -f $R/build.log; gzip -9 -n $R/*.log
tar czf $OUT/finalB.tgz -C $OUT finalB && rm -rf $R
