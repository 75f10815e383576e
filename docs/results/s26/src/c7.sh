#!/bin/bash
# session 26, call 7: the tiled launcher's attribute and occupancy queries cached per device, and
# no fork / join of the panel stream around the tiled kernel or a one-block matrix, against
# call 3's tree (build/ab/bench_potrf_mem). overhead (n = 1024, single: full call / launch /
# kernel alone / memsets); quick dpotrf / spotrf suites and testing_host; tiled and small sizes,
# both precisions and triangles, niter 15, two rounds.
source docs/results/call_common.sh c7 lib benchmarks/bench_potrf testing/testing_dpotrf testing/testing_spotrf testing/testing_host
run overhead --limit 60 ./build/overhead; cat $R/overhead.log
for p in d s; do run testing_${p}potrf_quick --limit 200 ./testing/testing_${p}potrf --suite --quick; done
run testing_host --limit 300 ./testing/testing_host
for r in 1 2; do for v in cache mem; do b=./benchmarks/bench_potrf; [ $v = mem ] && b=build/ab/bench_potrf_mem
  run ab_${v}_$r --limit 400 $b -n 256,512,1023,1024,1025,2048,4096 --prec ds --uplo LU --niter 15
  echo "$v.$r: $(grep -E '^ *[ds] +[0-9]+ [LU] auto' $R/ab_${v}_$r.log | awk '{printf "%s%s%s %s/%s=%s  ", $1,$2,$3,$9,$12,$15}')"
done; done
finish
