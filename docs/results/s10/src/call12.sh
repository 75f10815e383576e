#!/bin/bash
# session 10, call 12: pftrf's auto takes the fused form from gchol_left_auto_from (single 6144, double 4608) again, not from the device potrf's new 8192 switch: spftrf suite, testing_host, pftrf at 6144 / 7168 / 8191 auto (both precisions, all variants)
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c12; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/gpu.txt
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
./testing/testing_host > $R/testing_host.log 2>&1; echo "host: $(grep SUMMARY $R/testing_host.log)"
./testing/testing_spftrf --suite > $R/suite_spftrf.log 2>&1; echo "suite spftrf: $(grep SUMMARY $R/suite_spftrf.log) t=$((SECONDS-S))"
for p in s d; do
  ./benchmarks/bench_pftrf --sizes 6144,7168,8191 --prec $p --all-rfp --form auto --csv $R/pftrf_auto_$p.csv > $R/pftrf_auto_$p.log 2>&1
  echo "== pftrf $p auto"; grep -vE '^#|^$' $R/pftrf_auto_$p.log | cut -c1-100
done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c12.tgz -C $OUT c12 && rm -rf $R
