#!/bin/bash
# session 8, call 14: ncu of one bulk-update launch of the 3xTF32 kernel in spotrf, lower (M-major) against upper (K-major), n = 16384
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c14; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for u in L U; do
  timeout 200 ncu --kernel-name regex:syrk_diag_kernel --launch-skip 6 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats \
    ./testing/testing_spotrf -n 16384 --uplo $u --variant left --lookahead off --nb 1024 --recnb 512 --niter 1 > $R/ncu_$u.log 2>&1
  echo "== $u rc=$?"; grep -E "syrk_diag_kernel|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Stall|Grid Size|Registers|Issued Warp|Warp Cycles Per Issued" $R/ncu_$u.log | head -30 | cut -c1-150
done
echo "t=$((SECONDS-S))"
tar czf $OUT/c14.tgz -C $OUT c14 && rm -rf $R
