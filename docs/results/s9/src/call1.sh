#!/bin/bash
# session 9, call 1: 'U' by swapping the triangles: potrf suites (both precisions), memcheck of the quick suites, A/B sweep view against swap with cuSOLVER
source .deps/env.sh; export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
S=$SECONDS; nvidia-smi -L; R=$OUT/c1; mkdir -p $R
make -j16 all > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
for p in s d; do ./testing/testing_${p}potrf --suite > $R/suite_$p.log 2>&1; echo "suite $p: $(grep SUMMARY $R/suite_$p.log) t=$((SECONDS-S))"; grep -E "FAILED" $R/suite_$p.log | head -5; done
grep -E "up=swap" $R/suite_s.log | head -3
for p in s d; do timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_${p}potrf --suite --quick > $R/memcheck_$p.log 2>&1; echo "memcheck $p: rc=$? $(grep SUMMARY $R/memcheck_$p.log) | $(grep -E 'ERROR SUMMARY' $R/memcheck_$p.log)"; done
./benchmarks/bench_potrf -n 1024,2048,4096,6144,8192,12288,16384,32768 --prec sd --uplo LU --upper both --niter 5 --csv $R/ab.csv > $R/ab.log 2>&1
grep -E '^ *[ds] +[0-9]+ [LU] ' $R/ab.log | awk '{printf "%s %s %s %-16s %s/%s=%s\n", $1,$2,$3,$4,$9,$12,$15}'; echo "done t=$((SECONDS-S))"
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $R
