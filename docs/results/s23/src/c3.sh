#!/bin/bash
# session 23, call 3: A/B of the host potrf's download with deferred unpacking of the diagonal
# blocks (new: two pinned slots, the host no longer waits for each band's copies) against the
# download before it (old: src/potrf_host_before_slots.c linked in place of potrf_host.c), and of
# the least squares' C download beside the factorization (new) against after it
# (GCHOL_AB_WLS_C_AFTER=1). Alternating processes, median of 5 each.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
# the old library: the same objects but potrf_host_{d,s}.o from the old source
O=/tmp/old; mkdir -p $O; cp lib/libgchol.a $O/
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
cp docs/results/s23/src/potrf_host_before_slots.c src/potrf_host_old_tmp.c  # removed from the tree after the session: git show 82a985d~1:src/potrf_host.c
cc $CF -DGCHOL_PREC_D -c src/potrf_host_old_tmp.c -o $O/potrf_host_d.o && cc $CF -DGCHOL_PREC_S -c src/potrf_host_old_tmp.c -o $O/potrf_host_s.o || exit 1
rm src/potrf_host_old_tmp.c
(cd $O && ar r libgchol.a potrf_host_d.o potrf_host_s.o) || exit 1
LD="-L/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lcusolver -lpthread -llapacke -lopenblas -lm -lstdc++"
cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o $O/bench_potrf $O/libgchol.a $LD || exit 1
cc $CF -Ibenchmarks benchmarks/bench_syrk_diag_host.c benchmarks/bench_common.c -o $O/bench_syrk_diag_host $O/libgchol.a $LD || exit 1
echo "build t=$((SECONDS-S))"
for round in 1 2; do
  for ab in old new; do
    B=./benchmarks; [ $ab = old ] && B=$O
    timeout $((590-SECONDS)) $B/bench_potrf -n 4096,8192,16384 --prec ds --uplo LU --host-pinned --niter 5 > $R/potrf_pinned_${ab}_$round.log 2>&1
    echo "pinned $ab $round t=$((SECONDS-S))"
  done
done
for ab in old new; do
  B=./benchmarks; [ $ab = old ] && B=$O
  timeout $((590-SECONDS)) $B/bench_potrf -n 8192,16384 --prec ds --uplo LU --host --niter 5 > $R/potrf_pageable_${ab}.log 2>&1
  echo "pageable $ab t=$((SECONDS-S))"
done
for p in d s; do
  for ab in oldlib_after new_after new; do
    B=./benchmarks; [ $ab = oldlib_after ] && B=$O
    if [ $ab = new ]; then unset GCHOL_AB_WLS_C_AFTER; else export GCHOL_AB_WLS_C_AFTER=1; fi
    timeout $((590-SECONDS)) $B/bench_syrk_diag_host --prec $p --runs 5 --wls-only --shapes 4096x65536,8192x32768,16384x16384 > $R/wls_${p}_${ab}.log 2>&1
    echo "wls $p $ab t=$((SECONDS-S))"
  done
done
unset GCHOL_AB_WLS_C_AFTER
echo "== potrf host (ms): n uplo prec | old1 old2 new1 new2 | device gchol"
for f in $R/potrf_*.log; do echo "$(basename $f): $(grep -c . $f) lines"; done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
