#!/bin/bash
# session 18, call 4: dsposv phase by phase (posv_phase.cu), and testing_dsposv --suite with the n = 1 fix.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -Iinclude -Isrc -o $R/posv_phase docs/results/s18/src/posv_phase.cu lib/libgchol.a -lcublasLt -lcublas > $R/pb.log 2>&1 || tail $R/pb.log
echo "build t=$((SECONDS-S))"
timeout 120 $R/posv_phase > $R/posv_phase.log 2>&1; echo "posv_phase rc=$? t=$((SECONDS-S))"; cat $R/posv_phase.log
timeout 100 ./testing/testing_dsposv --suite > $R/testing_dsposv.log 2>&1; echo "dsposv --suite rc=$? $(tail -1 $R/testing_dsposv.log) t=$((SECONDS-S))"
grep FAILED $R/testing_dsposv.log | head
rm -f $R/build.log $R/pb.log $R/posv_phase; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
