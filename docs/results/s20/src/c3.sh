#!/bin/bash
# session 20, call 3: the shim's crossover at small sizes (bench_lapack_shim alone, both precisions):
# potrf n = 16..512, potrs n = 128..1024 with nrhs 1..64.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for p in d s; do
  ./benchmarks/bench_lapack_shim --prec $p --n 16,32,48,64,96,128,192,256,384,512 --solve-n 128,256,512,1024,2048 --nrhs 1,4,16,64 --runs 7 --csv $R/bench_lapack_shim_small_$p.csv > $R/bench_lapack_shim_small_$p.log 2>&1; echo "bench $p rc=$? t=$((SECONDS-S))"
  cat $R/bench_lapack_shim_small_$p.log
done
rm -f $R/build.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
