#!/bin/bash
# session 11, call 9: single precision around the tiled -> left switch (8192) after the tiled kernel's faster waits: tiled against auto (left 1024/1024, 'U' by swapping) at 7680-10240, L and U, two rounds; double tiled against auto at 4608-6144
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c9; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for r in 1 2; do for v in tiled auto; do
  ./benchmarks/bench_potrf -n 7680,8192,8193,8704,9216,10240 --prec s --uplo LU --variant $v --niter 5 --csv $R/s_${v}_$r.csv > $R/s_${v}_$r.log 2>&1
  echo "s $v.$r $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/s_${v}_$r.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done; done
for v in tiled auto; do
  ./benchmarks/bench_potrf -n 4608,5120,5632,6144 --prec d --uplo LU --variant $v --niter 5 --csv $R/d_${v}.csv > $R/d_${v}.log 2>&1
  echo "d $v $(grep -E '^ *[ds] +[0-9]+ [LU] ' $R/d_${v}.log | awk '{printf "%s%s %s  ", $2,$3,$9}')"
done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c9.tgz -C $OUT c9 && rm -rf $R
