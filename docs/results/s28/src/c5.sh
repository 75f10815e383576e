#!/bin/bash
# session 28, call 5: chain-step profiles, helper on and off (s28/src/chainprof.cu), two rounds.
source docs/results/call_common.sh c5 lib
for r in 1 2; do for v in on off; do e=""; [ $v = off ] && e="GCHOL_TILED_HELPER=0"
  run chainprof_${v}_$r --limit 200 env $e ./build/chainprof28
  grep -E "profile|alone" $R/chainprof_${v}_$r.log | cut -c1-330; done; done
finish
