#!/bin/bash
# session 24, call 5 (benchmarks only, the GPU to themselves): the final kernel (full stages'
# copies without the column test) in issue 4's rows (bench_syrk_diag d and s, --all-rfp) and in
# single potrf, whose lower update runs on it (A/B against HEAD's kernel, bench_potrf_old, two
# rounds); the host potrf's download with 4 pinned slots (final) against 2 (bench_potrf_slots2,
# -DGCHOL_HOST_SLOTS=2), pinned arrays, two rounds; issue 3's full auto sweep.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c5; mkdir -p $R
make -j16 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in d s; do
  timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  echo "== syrk_diag $p rc=$? t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-150
done
for r in 1 2; do
  for ab in old new; do
    b=./benchmarks/bench_potrf; [ $ab = old ] && b=./build/bench_potrf_old
    timeout $((560-SECONDS)) $b -n 8192,12288,16384,32768 --prec s --uplo LU --niter 5 > $R/spotrf_${ab}_$r.log 2>&1
    echo "spotrf $ab $r t=$((SECONDS-S)): $(grep -E '^ *s +[0-9]+ [LU] auto' $R/spotrf_${ab}_$r.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}')"
  done
done
for r in 1 2; do
  for ab in slots2 slots4; do
    b=./benchmarks/bench_potrf; [ $ab = slots2 ] && b=./build/bench_potrf_slots2
    timeout $((560-SECONDS)) $b -n 8192,16384 --prec ds --uplo LU --host-pinned --niter 5 > $R/host_${ab}_$r.log 2>&1
    echo "host $ab $r t=$((SECONDS-S)): $(grep 'host' $R/host_${ab}_$r.log | awk '{printf "%s%s%s=%s ", $1,$2,$3,$9}')"
  done
done
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
echo "sweep rc=$? t=$((SECONDS-S))"
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s %s\n", $1,$2,$3,$9,$12,$15,$NF}'
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
