#!/bin/bash
# session 21, call 2: the two new pieces on the GPU. (1) The LAPACK shim with its GPU side moved
# to the engine library opened at the first GPU call: the shim's tester, the preload tests (now
# with the engine and fault-injection cases), the hidden-GPU run, memcheck of the quick shim
# suite, and bench_lapack_shim at three sizes (the engine must not cost time per call).
# (2) gchol_?wls_rfp_gpu: testing_wls --suite with the RFP variants, memcheck of its quick
# suite, and bench_wls with the dwls-rfp contender. One tester at a time (the shim's
# out-of-memory case takes the device).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c2; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((575-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S))"; }
run testing_wls ./testing/testing_wls --suite
run testing_lapack_shim ./testing/testing_lapack_shim --suite
run testing_preload sh testing/testing_preload.sh
run testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
run memcheck_wls compute-sanitizer --tool memcheck ./testing/testing_wls --suite --quick
run memcheck_lapack_shim compute-sanitizer --tool memcheck --report-api-errors no ./testing/testing_lapack_shim --suite --quick
run bench_lapack_shim_d ./benchmarks/bench_lapack_shim --prec d --n 1024,4096,8192 --solve-n 4096 --posv-n 4096 --csv $R/bench_lapack_shim_d.csv
run bench_wls_NL ./benchmarks/bench_wls --no-gels --niter 3 --transr N --uplo L --csv $R/bench_wls_NL.csv
run bench_wls_TU ./benchmarks/bench_wls --no-gels --niter 3 --transr T --uplo U --csv $R/bench_wls_TU.csv
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/*.log | head -20
tail -25 $R/bench_lapack_shim_d.log
for t in NL TU; do echo "bench_wls $t:"; grep -vE '^#' $R/bench_wls_$t.log | grep -v '^$' | cut -c1-200; done
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $R
