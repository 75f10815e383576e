#!/bin/bash
# session 25, call 12 (the final tree): issue 3's full auto sweep; the final tree against call
# 8's V2 (build/ab.tar.xz: bench_potrf_V2; the same stores, so a check that the two builds run
# alike), tiled sizes, two rounds; memcheck of the quick dpotrf /
# spotrf suites and racecheck of the tiled kernel at 1000; issue 4's pftrf rows (d, 16384 / 32768).
source docs/results/call_common.sh c12 lib benchmarks/bench_potrf benchmarks/bench_pftrf testing/testing_dpotrf testing/testing_spotrf
tar xJf build/ab.tar.xz -C build
run bench_sweep --limit 300 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s %s\n", $1,$2,$3,$9,$12,$15,$NF}'
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
for r in 1 2; do for v in final V2; do b=./benchmarks/bench_potrf; [ $v = V2 ] && b=build/ab/bench_potrf_V2
  run ab_${v}_$r --limit 420 $b -n 1024,2048,3072,4096 --prec ds --uplo LU --niter 7
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
for p in d s; do run memcheck_${p}potrf --limit 480 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick; done
for c in "s L" "s U" "d L" "d U"; do set -- $c
  run racecheck_$1$2 --limit 540 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
run bench_pftrf_d --limit 590 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv
grep -vE '^#|^$' $R/bench_pftrf_d.log | cut -c1-160
finish
