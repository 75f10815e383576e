#!/bin/bash
# session 28, call 11 (measurement only): where the helper's ~2 us after the product go. A profile
# build (chainprof28split, not in the tree: the kept kernel with W -= X X^T done in the helper's
# shared memory, a barrier and a stamp, then the 2080 sends, a barrier and a stamp) against the
# kept kernel's chainprof.
source docs/results/call_common.sh c11 lib
for b in chainprof28 chainprof28split; do run $b --limit 200 ./build/$b
  grep -E "helper profile|seen by" $R/$b.log | cut -c1-330 | head -8; done
finish
