#!/bin/bash
# session 7, call 6: where the copy and scaling parts sit among the k-steps
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
mkdir -p $OUT/c6
for v in z42 z42s4 z42s2 z41 z82 z42e2 z42e2s1 z42; do
  echo "== variant $v"
  timeout 100 ./scratch/s7/bsd_$v --prec d --runs 5 --csv $OUT/c6/sd_$v.csv > $OUT/c6/sd_$v.log 2>&1
  grep -v '^#' $OUT/c6/sd_$v.log | tail -4 | cut -c1-60,100-
done
cd $OUT && tar czf c6.tgz c6 && rm -rf c6
