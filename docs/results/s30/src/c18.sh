#!/bin/bash
# session 30, call 18: the host interface keeps nb 1024 in double from 24576 (call 17: 2048 ran
# 3-6% slower there from pinned memory). GPU tests of what the change touches (src/options.c's
# resolve_host): testing_host, testing_dhost_bounds, the quick dpotrf suite and its memcheck; then
# the host interface with auto options at 24576 / 32768 (pinned).
source docs/results/call_common.sh c18 all
run testing_host --limit 120 ./testing/testing_host
( run testing_dhost_bounds --limit 300 ./testing/testing_dhost_bounds ) &
( run testing_dpotrf_quick --limit 300 ./testing/testing_dpotrf --suite --quick ) &
( run memcheck_dpotrf --limit 300 compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_dpotrf --suite --quick ) &
wait
tally
grep -h "ERROR SUMMARY" $R/memcheck_dpotrf.log | tail -1
run host --limit 420 ./benchmarks/bench_potrf -n 24576,32768 --prec d --uplo L --host-pinned --niter 3
grep -E '^ *d +[0-9]+ L ' $R/host.log | awk '{printf "%s %s %s/%s %s/%s=%s\n", $2,$4,$6,$7,$9,$12,$15}'
finish
