#!/bin/bash
# session 7, call 3: natural row layout, 16-byte copies; part counts
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c3
for v in 4_0 v22 v24 v12 v44 v21 v22; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec d --runs 5 --csv $OUT/c3/sd_$v.csv > $OUT/c3/sd_$v.log 2>&1
  grep -v '^#' $OUT/c3/sd_$v.log | tail -4 | cut -c1-60,100-
done
timeout 120 ./scratch/s7/tsd_v22 --suite > $OUT/c3/test_v22.log 2>&1; echo "test v22: $(grep SUMMARY $OUT/c3/test_v22.log)"; grep FAIL $OUT/c3/test_v22.log | head -5
timeout 150 compute-sanitizer --tool racecheck ./scratch/s7/tsd_v22 --quick > $OUT/c3/race_v22.log 2>&1; echo "racecheck: $(grep -E 'SUMMARY' $OUT/c3/race_v22.log | tr '\n' ' ')"
timeout 100 compute-sanitizer --tool memcheck ./scratch/s7/tsd_v22 --quick > $OUT/c3/mem_v22.log 2>&1; echo "memcheck: $(grep -E 'SUMMARY' $OUT/c3/mem_v22.log | tr '\n' ' ')"
cd $OUT && tar czf c3.tgz c3 && rm -rf c3
