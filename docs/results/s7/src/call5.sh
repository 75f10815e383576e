#!/bin/bash
# session 7, call 5: branch-free copies inside the k-steps
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c5
for v in w24 y24 y44 y14 y12 y84 y42 w24; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec d --runs 5 --csv $OUT/c5/sd_$v.csv > $OUT/c5/sd_$v.log 2>&1
  grep -v '^#' $OUT/c5/sd_$v.log | tail -4 | cut -c1-60,100-
done
timeout 120 ./scratch/s7/tsd_y44 --suite > $OUT/c5/test_y44.log 2>&1; echo "test y44: $(grep SUMMARY $OUT/c5/test_y44.log)"; grep FAIL $OUT/c5/test_y44.log | head -5
timeout 150 compute-sanitizer --tool racecheck ./scratch/s7/tsd_y44 --quick > $OUT/c5/race_y44.log 2>&1; echo "racecheck: $(grep -E 'SUMMARY' $OUT/c5/race_y44.log | tr '\n' ' ')"
timeout 120 ./scratch/s7/tsd_y14 --suite > $OUT/c5/test_y14.log 2>&1; echo "test y14: $(grep SUMMARY $OUT/c5/test_y14.log)"
cd $OUT && tar czf c5.tgz c5 && rm -rf c5
