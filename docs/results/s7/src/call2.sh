#!/bin/bash
# session 7, call 2: syrk_diag main loop with the copies/scaling spread over the k-steps
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c2
for v in 4_0 p44 p24 p88 p48 p22 p14 4_0; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec d --runs 5 --csv $OUT/c2/sd_$v.csv > $OUT/c2/sd_$v.log 2>&1
  grep -v '^#' $OUT/c2/sd_$v.log | tail -4 | cut -c1-60,100-
done
for v in p44 p88; do timeout 120 ./scratch/s7/tsd_$v --suite > $OUT/c2/test_$v.log 2>&1; echo "test $v: $(grep SUMMARY $OUT/c2/test_$v.log)"; done
cd $OUT && tar czf c2.tgz c2 && rm -rf c2
