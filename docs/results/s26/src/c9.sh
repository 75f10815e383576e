#!/bin/bash
# session 26, call 9 (the final tree): issue 3's full auto sweep (both precisions and triangles,
# median of 5, cuSOLVER in the same process); memcheck of the quick dpotrf / spotrf suites and
# racecheck of the tiled kernel (s / d, L / U, n = 1000); issue 4's rows (bench_syrk_diag d and s
# with the four RFP variants, then bench_pftrf d at 16384 / 32768 against the full potrf).
source docs/results/call_common.sh c9 lib benchmarks/bench_potrf benchmarks/bench_syrk_diag benchmarks/bench_pftrf testing/testing_dpotrf testing/testing_spotrf
run bench_sweep --limit 200 ./benchmarks/bench_potrf -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
    --prec ds --uplo LU --variant auto --niter 5 --csv $R/bench_sweep.csv
grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/bench_sweep.log | awk '{printf "%s %s %s %s/%s=%s %s\n", $1,$2,$3,$9,$12,$15,$NF}'
grep -iE "gemm|ceiling" $R/bench_sweep.log | head -3
for p in d s; do run memcheck_${p}potrf --limit 330 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick; done
for c in "s L" "s U" "d L" "d U"; do set -- $c
  run racecheck_$1$2 --limit 380 compute-sanitizer --tool racecheck --error-exitcode 1 ./testing/testing_$1potrf -n 1000 --uplo $2 --variant tiled --niter 1; done
for p in d s; do
  run bench_syrk_diag_$p --limit 480 ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 --csv $R/syrk_diag_$p.csv
  grep -vE '^$' $R/bench_syrk_diag_$p.log | grep -v "^# [a-z]" | cut -c1-150
done
run bench_pftrf_d --limit 590 ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp --form auto --csv $R/pftrf_d.csv
grep -vE '^#|^$' $R/bench_pftrf_d.log | cut -c1-160
finish
