#!/bin/bash
# session 16, call 7 (run after final B): call 2's lead for double 32768 (session 15: one fixed
# cublasLt struct, 64 x 64 tiles / 32 x 3 stages from the list of the reference shape 14336 x 1024
# x 1024 at ld 16384, beat cublasDgemm summed over the update gemms by 6%). (1) In the factorization:
# lt_ref.patch (applied to a copy of the tree, never committed) sends double lower's bulk-update
# gemms (k, nn >= 1024) with 24576 <= lda < 36864 through that struct where its alignment needs hold; bench_potrf d L 24576 / 28672 / 32768, the
# tree against the patch, alternating, two rounds; testing_dpotrf --suite on a build that sends
# every aligned non-transposed gemm below lda 36864 through it (GCHOL_LT_REF_LD=1, _K=0). (2) ltprobe
# (session 15's call 6): which attribute of the struct does it.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c7; mkdir -p $R /tmp/ab/ref /tmp/ab/reft
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
rm -rf /tmp/reftree && mkdir -p /tmp/reftree && cp -r src include kernels /tmp/reftree/ && (cd /tmp/reftree && patch -p1 < $OLDPWD/docs/results/s16/src/lt_ref.patch) > $R/patch.log 2>&1 || { cat $R/patch.log; exit 1; }
CF="-O2 -std=c11 -Wall -Wextra -fPIC -I/tmp/reftree/include -I/tmp/reftree/src -I/usr/local/cuda/include"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
for v in "ref:-DGCHOL_LT_REF_LD=24576" "reft:-DGCHOL_LT_REF_LD=1 -DGCHOL_LT_REF_K=0"; do d=${v%%:*}; D=${v#*:}
  for f in gemm_lt potrf_driver; do cc $CF -DGCHOL_PREC_D $D -c /tmp/reftree/src/$f.c -o /tmp/ab/$d/${f}_d.o || exit 1; done
  cp lib/libgchol.a /tmp/ab/lib$d.a && ar r /tmp/ab/lib$d.a /tmp/ab/$d/*.o || exit 1
  nm /tmp/ab/lib$d.a | grep -q cublasLtMatmulAlgoCheck || { echo "lib$d.a lacks the patch"; exit 1; }
done
cc $CF -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o /tmp/ab/bench_potrf_ref /tmp/ab/libref.a $LK -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
cc $CF -DGCHOL_PREC_D -Itesting testing/testing_potrf.c testing/testing_common.c -o /tmp/ab/tdpotrf_reft /tmp/ab/libreft.a $LK -llapacke -lopenblas -lm -lstdc++ || exit 1
echo "build t=$((SECONDS-S))"
for rep in 1 2; do for v in def ref; do
  B=./benchmarks/bench_potrf; [ $v = ref ] && B=/tmp/ab/bench_potrf_ref
  $B -n 24576,28672,32768 --prec d --uplo L --variant auto --niter 3 > $R/potrf_${v}_$rep.log 2>&1
  [ $v = ref ] && [ $rep = 1 ] && grep lt_ref $R/potrf_${v}_$rep.log
  echo -n "$v $rep: "; grep -E '^ *d +[0-9]+ [LU] auto' $R/potrf_${v}_$rep.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}'; echo " t=$((SECONDS-S))"
done; done
timeout 90 /tmp/ab/tdpotrf_reft --suite --quick > $R/tdpotrf_reft.log 2>&1; echo "tdpotrf (every aligned gemm below 36864 through the struct) rc=$? $(tail -1 $R/tdpotrf_reft.log) t=$((SECONDS-S))"
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/ltprobe docs/results/s15/src/ltprobe.cu -lcublasLt -lcublas > $R/ltbuild.log 2>&1 || { tail $R/ltbuild.log; exit 1; }
timeout $((330 - (SECONDS - S))) /tmp/ltprobe > $R/ltprobe.log 2>&1; echo "ltprobe rc=$? t=$((SECONDS-S))"
grep -E "fixed:|SUM" $R/ltprobe.log
gzip -9 -n $R/*.log; rm -f $R/build.log.gz
tar czf $OUT/c7.tgz -C $OUT c7 && rm -rf $R
