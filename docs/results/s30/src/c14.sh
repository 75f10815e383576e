#!/bin/bash
# session 30, call 14: chasing c13's one failure (testing_spotrf --suite, the "stream" case, n = 257
# lower: info = 1 on an SPD matrix; c11 ran the same kernels, PTX identical, and passed).
# stream_stress.c: poison, copy in, potrf_async, read info, many rounds; modes 0 (default queue),
# 1 (a queue from a non-blocking stream), 2 (the same, a fresh queue every 100 rounds); with and
# without the tiled kernel's helper. Then the quick spotrf suite three times.
source docs/results/call_common.sh c14 lib testing/testing_spotrf
cc -O2 -std=c11 -Iinclude -I/usr/local/cuda/include docs/results/s30/src/stream_stress.c -o /tmp/ss lib/libgchol.a \
   -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread -lm -lstdc++ || exit 1
for cfg in "s 257 20000 1" "s 257 20000 2" "s 257 20000 0" "s 300 20000 2" "s 1025 5000 2" "d 257 20000 2"; do
  set -- $cfg
  run ss_$1$2_m$4 --limit 400 /tmp/ss $cfg
  tail -4 $R/ss_$1$2_m$4.log | tr '\n' ' '; echo
done
run ss_s257_m2_nohelper --limit 420 env GCHOL_TILED_HELPER=0 /tmp/ss s 257 20000 2
tail -3 $R/ss_s257_m2_nohelper.log | tr '\n' ' '; echo
for r in 1 2 3; do
  run spotrf_quick_$r --limit 560 ./testing/testing_spotrf --suite --quick
  grep FAILED $R/spotrf_quick_$r.log | head -3
done
finish
