#!/bin/bash
# session 22, call 4 (c3 + blocks that start at 1/8 of the largest and double, up to 1 GiB): the host-memory A*D^2*A^T (gchol_?syrk_diag,
# gchol_?sfrk_diag): the d and s syrk_diag suites (full, with the host cases
# of section 8), testing_host, memcheck of the quick dsyrk_diag suite (host
# cases included), then bench_syrk_diag_host in double and single.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c4; mkdir -p $R
make -j16 lib testing/testing_dsyrk_diag testing/testing_ssyrk_diag testing/testing_host benchmarks/bench_syrk_diag_host > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build t=$((SECONDS-S))"
run() { name=$1; shift; timeout $((590-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S)) $(grep '^SUMMARY' $R/$name.log | tail -1)"; }
run host ./testing/testing_host
run dsyrk_diag ./testing/testing_dsyrk_diag --suite
run ssyrk_diag ./testing/testing_ssyrk_diag --suite
run memcheck_dsyrk_diag_quick compute-sanitizer --tool memcheck --error-exitcode 9 ./testing/testing_dsyrk_diag --suite --quick
grep -h "ERROR SUMMARY" $R/memcheck_dsyrk_diag_quick.log
grep -h "FAILED" $R/*.log | head -20
grep -h "(host" $R/dsyrk_diag.log | cut -c1-170 | head -40
run bench_host_d ./benchmarks/bench_syrk_diag_host --prec d --runs 3
run bench_host_s ./benchmarks/bench_syrk_diag_host --prec s --runs 3
cat $R/bench_host_d.log $R/bench_host_s.log
rm -f $R/build.log; gzip -9 -n $R/*.log; tar czf $OUT/c4.tgz -C $OUT c4 && rm -rf $R
