#!/bin/bash
# session 8, final call 5: the final tree (single precision's new nb / recnb rows): host tests, spotrf / spftrf suites; single sweep (auto) with cuSOLVER; pftrf single
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/final5; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for t in host spotrf spftrf; do
  a=--suite; [ $t = host ] && a=
  timeout 150 ./testing/testing_$t $a > $R/test_$t.log 2>&1; echo "$t: $(grep SUMMARY $R/test_$t.log)"; grep FAILED $R/test_$t.log | head -3 | cut -c1-200
done; echo "t=$((SECONDS-S))"
./benchmarks/bench_potrf -n 8191,8192,8193,12288,16384,24576,32768,40960 --prec s --uplo LU --variant auto --niter 5 --csv $R/bench_sweep_s.csv > $R/bench_sweep_s.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep_s.log | awk '{printf "%s %s %s %s/%s %s/%s=%s\n", $1,$2,$3,$6,$7,$9,$12,$15}'; echo "sweep t=$((SECONDS-S))"
./benchmarks/bench_pftrf --sizes 16384,32768 --prec s --all-rfp --form auto --csv $R/pftrf_s.csv > $R/pftrf_s.log 2>&1
grep -vE '^#|^$' $R/pftrf_s.log | cut -c1-100; echo "done t=$((SECONDS-S))"
tar czf $OUT/final5.tgz -C $OUT final5 && rm -rf $R
