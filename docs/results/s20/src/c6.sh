#!/bin/bash
# session 20, call 6 (the final library): the shim's solve crossover again, now that gchol's host
# potrs uploads only the factor's triangle (bench_lapack_shim alone, both precisions, median of 7):
# potrs n = 256..3072, nrhs 1..256; posv at small n.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c6; mkdir -p $R
make -j16 benchmarks/bench_lapack_shim > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
for p in d s; do
  ./benchmarks/bench_lapack_shim --prec $p --n 64,96,128 --solve-n 256,512,768,1024,1536,2048,3072 --nrhs 1,4,16,64,256 --posv-n 64,128,256,512 --runs 7 --csv $R/bench_lapack_shim_solve_$p.csv > $R/bench_lapack_shim_solve_$p.log 2>&1; echo "bench $p rc=$? t=$((SECONDS-S))"
  cat $R/bench_lapack_shim_solve_$p.log
done
rm -f $R/build.log; tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $R
