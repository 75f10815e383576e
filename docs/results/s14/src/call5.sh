#!/bin/bash
# session 14, call 5: where potf2's time goes after call 4: p9prof (phase stamps of potf2_panel, threads 0
# and 64, through the temporary GCHOL_POTF2_PROF hooks) and s12's chainprof (chain-step phases).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c5; mkdir -p $R
NV="nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
rm -rf /tmp/ab; mkdir -p /tmp/ab
$NV docs/results/s14/src/p9prof.cu -o /tmp/ab/p9prof & $NV docs/results/s12/src/p9.cu -o /tmp/ab/p9 &
$NV -DGCHOL_TILED_PROFILE=20000 docs/results/s12/src/chainprof.cu -o /tmp/ab/chainprof & wait
echo "build t=$((SECONDS-S))"
/tmp/ab/p9 | tee $R/p9.log; /tmp/ab/p9prof | tee $R/p9prof.log
/tmp/ab/chainprof > $R/chainprof.log 2>&1; grep -E "avg|split|^[ds][LU] n= *(1024|2048|4096)" $R/chainprof.log | head -40
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
