#!/bin/bash
# session 21, call 3: (1) testing_wls --suite and memcheck of its quick suite again, after c2's
# harness fixes (single-precision copies for RFP-only problems; no cascaded pending error).
# (2) A/B of the LAPACK shim's GPU path: the previous shim (gchol linked in; session 20's final
# tree, commit 449aa9a, carried as ab_old/) against the engine form (gchol dlopen'ed), same
# process kind, alternating, two rounds of bench_lapack_shim (double, potrf 1024/4096/8192,
# potrs and posv at 4096).
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; R=$OUT/c3; mkdir -p $R
( make -j8 all > $R/build.log 2>&1 || echo "BUILD FAILED new" ) &
( make -C ab_old -j8 lib/libgchol_lapack.so benchmarks/bench_lapack_shim > $R/build_old.log 2>&1 || echo "BUILD FAILED old" ) &
wait
echo "build t=$((SECONDS-S))"
[ -x benchmarks/bench_lapack_shim ] && [ -x ab_old/benchmarks/bench_lapack_shim ] || { tail -20 $R/build.log $R/build_old.log; exit 1; }
ldd ab_old/lib/libgchol_lapack.so | grep -c cublas; ldd lib/libgchol_lapack.so | grep -c cublas
run() { name=$1; shift; timeout $((575-SECONDS)) "$@" > $R/$name.log 2>&1; echo "rc=$?" >> $R/$name.log; echo "$name t=$((SECONDS-S))"; }
run testing_wls ./testing/testing_wls --suite
run memcheck_wls compute-sanitizer --tool memcheck ./testing/testing_wls --suite --quick
B="--prec d --n 1024,4096,8192 --solve-n 4096 --posv-n 4096"
for r in 1 2; do
  run bench_old_$r ./ab_old/benchmarks/bench_lapack_shim $B --csv $R/bench_old_$r.csv
  run bench_new_$r ./benchmarks/bench_lapack_shim $B --csv $R/bench_new_$r.csv
done
for l in $R/testing_*.log $R/memcheck_*.log; do echo "$(basename $l .log): $(grep '^SUMMARY' $l | tail -1) $(grep 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)"; done
grep -h "FAILED" $R/testing_*.log $R/memcheck_*.log | head -20
for r in 1 2; do for v in old new; do echo "== $v round $r"; grep -E "^ +(1024|4096|8192) " $R/bench_${v}_$r.log; done; done
rm -f $R/build.log $R/build_old.log; gzip -9 -n $R/*.log; tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $R
