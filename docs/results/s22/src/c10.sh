#!/bin/bash
# session 22, call 10 (the final tree; kernels and potrf unchanged since session 19): the two
# issues' closing figures measured again in this session. Issue 3's full auto sweep
# (bench_potrf, 1023-40960 with k*512+-1, d and s, L and U, median of 5, cuSOLVER in the same
# process); issue 4's rows (bench_syrk_diag d and s, full and the four RFP variants against
# cuBLAS dgmm + dsyrk and dsyrkx, median of 5; bench_pftrf d at 16384 / 32768).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c10; mkdir -p $R
make -j16 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
timeout $((590-SECONDS)) ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv > $R/bench_sweep.log 2>&1
echo "sweep rc=$? t=$((SECONDS-S))"
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s\n", $1,$2,$3,$9,$12,$15}'
for p in d s; do
  timeout $((560-SECONDS)) ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv > $R/bench_syrk_diag_$p.log 2>&1
  echo "== syrk_diag $p rc=$? t=$((SECONDS-S))"; grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-160
done
timeout $((585-SECONDS)) ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv > $R/pftrf_d.log 2>&1
echo "== pftrf d rc=$? t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_d.log | cut -c1-140
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c10.tgz -C $OUT c10 && rm -rf $R
