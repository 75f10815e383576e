#!/bin/bash
# session 7, call 9: single precision stage width and part counts
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c9
for v in s16 s16i1 s16s1 s32 s32i2 s32s4 s8 s16; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec s --runs 5 --csv $OUT/c9/sd_$v.csv > $OUT/c9/sd_$v.log 2>&1
  grep -v '^#' $OUT/c9/sd_$v.log | tail -4 | cut -c1-60,100-
done
for v in s32 s32i2; do timeout 120 ./scratch/s7/tss_$v --suite > $OUT/c9/test_$v.log 2>&1; echo "test $v: $(grep SUMMARY $OUT/c9/test_$v.log)"; done
cd $OUT && tar czf c9.tgz c9 && rm -rf c9
