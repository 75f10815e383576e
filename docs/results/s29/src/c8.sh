#!/bin/bash
# session 29, call 8: c7's initcheck reports on the host interface, located. initprobe uploads
# what the host path uploads (the referenced part, diagonal blocks of 256 whole) into a fresh
# buffer with the host path's ld (n rounded up to 32), then potrf + potrs (nrhs 3); initcheck
# prints the addresses, mapped to (row, column) afterwards.
source docs/results/call_common.sh c8 lib
nvcc -O2 -std=c++17 -arch=sm_90 -Iinclude docs/results/s29/src/initprobe.cu lib/libgchol.a -lcublasLt -lcublas -o build/initprobe29 || exit 1
for c in "d L 257" "d U 257" "s L 257" "s U 257" "d L 1000" "d U 1000" "s L 1000" "d L 5000" "d U 5000" "s L 9000" "s U 9000"; do set -- $c
  run probe_$1$2$3 --limit 560 compute-sanitizer --tool initcheck --print-limit 3000 --show-backtrace no ./build/initprobe29 $1 $2 $3
  echo "$c: $(grep -c 'Uninitialized' $R/probe_$1$2$3.log) printed; $(grep 'ERROR SUMMARY' $R/probe_$1$2$3.log)"
done
finish
