#!/bin/bash
# session 11, call 6: double lower nb / recnb at 12288 / 16384 with the new worker poll (auto is 1024/512), two rounds
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for r in 1 2; do for cfg in 1024/512 1024/1024 2048/512 2048/1024 1536/768; do nb=${cfg%/*}; rn=${cfg#*/}
  ./benchmarks/bench_potrf -n 12288,16384 --prec d --uplo L --variant left --lookahead on --nb $nb --recnb $rn --niter 5 > $R/nb_${nb}_${rn}_$r.log 2>&1
  echo "$r $cfg $(grep -E '^ *d +[0-9]+ [LU] ' $R/nb_${nb}_${rn}_$r.log | awk '{printf "%s %s %s  ", $2,$9,$15}')"
done; done
echo "t=$((SECONDS-S))"
rm -f $R/build.log
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
