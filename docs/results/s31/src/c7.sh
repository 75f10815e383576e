#!/bin/bash
# session 31, call 7: call 6's split panel lost (its rows-below solve on the main stream, op_trsm,
# ran at ~16 TFLOP/s: 8.0 ms of 33.9 at 16384). What the other solves would cost there:
# trmm_probe.c times cublasDtrsm, cublasDtrmm (the product by an inverse, out of place), one dgemm
# by a full inverse, and the product blocked once into two gemms, at m = 4096 / 8192 / 15360,
# k = 512 / 1024 / 2048, ld 16384, median of 7.
source docs/results/call_common.sh c7 include/gchol.h
cc -O2 -Wall -I/usr/local/cuda/include docs/results/s31/src/trmm_probe.c -o /tmp/trmm_probe \
    -L/usr/local/cuda/lib64 -lcublas -lcudart
run trmm_probe --limit 200 /tmp/trmm_probe
cat $R/trmm_probe.log
finish
