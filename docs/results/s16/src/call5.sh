#!/bin/bash
# session 16, call 5 (session 15's call5.sh, 128 x 128 kernel form only, as call 4 found the 64 form slower;
# benches only: the suites run in finalA's make test if the default flips):
# double's bulk update on gchol's DMMA kernel in trapezoid mode (-DGCHOL_D_KERNEL_UPDATE=1, src/prec.h),
# with the kernel's 128 x 128 (default) and 64 x 64 (-DGCHOL_SYRK_D_TILE=64) forms, against cuBLAS
# (the default build): pftrf d all four variants at 16384 / 32768 (the 'N' variants' odd leading
# dimension is the target), potrf d L at 16384 / 32768; the dpotrf / dpftrf suites on both builds.
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c5; mkdir -p $R /tmp/ab/k128 /tmp/ab/k64
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
CF="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
NF="-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude -Ikernels --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
LK="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart -lpthread"
for v in k128; do
  cc $CF -DGCHOL_PREC_D -DGCHOL_D_KERNEL_UPDATE=1 -c src/potrf_driver.c -o /tmp/ab/$v/potrf_driver_d.o || exit 1
  T=128; [ $v = k64 ] && T=64
  nvcc $NF -DGCHOL_SYRK_D_TILE=$T -c kernels/syrk_diag.cu -o /tmp/ab/$v/syrk_diag.cu.o || exit 1
  cp lib/libgchol.a /tmp/ab/lib$v.a; ar r /tmp/ab/lib$v.a /tmp/ab/$v/potrf_driver_d.o /tmp/ab/$v/syrk_diag.cu.o
  for b in bench_potrf bench_pftrf; do
    cc $CF -Ibenchmarks benchmarks/$b.c benchmarks/bench_common.c -o /tmp/ab/${b}_$v /tmp/ab/lib$v.a $LK -lcusolver -llapacke -lopenblas -lm -lstdc++ || exit 1
  done
  for t in potrf pftrf; do
    cc $CF -DGCHOL_PREC_D -Itesting testing/testing_$t.c testing/testing_common.c -o /tmp/ab/td${t}_$v /tmp/ab/lib$v.a $LK -llapacke -lopenblas -lm -lstdc++ || exit 1
  done
done
for rep in 1 2; do
  for v in def k128; do
    P=./benchmarks/bench_pftrf; B=./benchmarks/bench_potrf; [ $v != def ] && { P=/tmp/ab/bench_pftrf_$v; B=/tmp/ab/bench_potrf_$v; }
    timeout 100 $P --sizes 16384,32768 --prec d --all-rfp --form auto > $R/pftrf_${v}_$rep.log 2>&1
    echo "== $v $rep t=$((SECONDS-S))"; grep -vE '^#|^$' $R/pftrf_${v}_$rep.log | cut -c1-100
    $B -n 16384,32768 --prec d --uplo L --variant auto --niter 3 > $R/potrf_${v}_$rep.log 2>&1
    grep -E '^ *d +[0-9]+ [LU] auto' $R/potrf_${v}_$rep.log | awk '{printf "%s%s %s/%s=%s  ", $2,$3,$9,$12,$15}'; echo
  done
done
gzip -9 -n $R/*.log; rm -f $R/build.log.gz
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $R
