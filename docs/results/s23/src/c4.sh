#!/bin/bash
# session 23, call 4: every tester that the session's library changes reach (src/potrf_host.c's
# download, src/wls.c, src/host_stream.c), full suites, in parallel groups, memcheck of the quick
# bounds suite and of the quick wls suite; then the pageable host potrf A/B of call 3 twice more
# (old: src/potrf_host_before_slots.c), alternating processes, median of 5.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 all testing/testing_dhost_bounds testing/testing_shost_bounds > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
export OPENBLAS_NUM_THREADS=3
run() { name=$1; shift; timeout $((430-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
( run testing_dpotrf ./testing/testing_dpotrf --suite; run testing_dsposv ./testing/testing_dsposv --suite ) &
( run testing_spotrf ./testing/testing_spotrf --suite; run testing_host ./testing/testing_host ) &
( run testing_wls ./testing/testing_wls --suite ) &
( run testing_dhost_bounds ./testing/testing_dhost_bounds; run testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick ) &
( run testing_shost_bounds ./testing/testing_shost_bounds; run testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
( run memcheck_dhost_bounds compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_dhost_bounds --quick; run memcheck_wls compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_wls --suite --quick ) &
wait
unset OPENBLAS_NUM_THREADS
grep -h "ERROR SUMMARY" $R/memcheck_*.log
grep -h "FAILED" $R/*.log | head -20
O=/tmp/old; mkdir -p $O; cp lib/libgchol.a $O/
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
cp docs/results/s23/src/potrf_host_before_slots.c src/potrf_host_old_tmp.c  # removed from the tree after the session: git show 82a985d~1:src/potrf_host.c
cc $CF -DGCHOL_PREC_D -c src/potrf_host_old_tmp.c -o $O/potrf_host_d.o && cc $CF -DGCHOL_PREC_S -c src/potrf_host_old_tmp.c -o $O/potrf_host_s.o
rm src/potrf_host_old_tmp.c
(cd $O && ar r libgchol.a potrf_host_d.o potrf_host_s.o)
LD="-L/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lcusolver -lpthread -llapacke -lopenblas -lm -lstdc++"
cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o $O/bench_potrf $O/libgchol.a $LD
for round in 1 2; do
  for ab in old new; do
    B=./benchmarks; [ $ab = old ] && B=$O
    timeout $((590-SECONDS)) $B/bench_potrf -n 8192,16384 --prec ds --uplo LU --host --niter 5 > $R/potrf_pageable_${ab}_$round.log 2>&1
    echo "pageable $ab $round t=$((SECONDS-S)): $(grep host $R/potrf_pageable_${ab}_$round.log | awk '{printf "%s%s%s=%s ", $1,$2,$3,$9}')"
  done
done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
