#!/bin/bash
# run_h100.sh -- everything that belongs in one GPU session, in priority
# order, with time guards so it fits a 10-minute device call: build, the
# test suite, compute-sanitizer, the demo, the benchmark rows (all variants),
# the auto sweep (both triangles, both precisions), a lookahead timeline and,
# if time is left, the n > 46341 case. Logs and CSVs go to $OUT (or results/).
#
#   STEPS="build test variants sweep" benchmarks/run_h100.sh   # a subset, in this order
#   STEPS=sanitize SANITIZE_TIMEOUT=580 benchmarks/run_h100.sh  # the whole sanitizer run alone
set -u
out=${OUT:-results}; mkdir -p "$out"
cd "$(dirname "$0")/.."
steps=" ${STEPS:-build test sanitize demo variants sweep host timeline large} "
want() { [[ "$steps" == *" $1 "* ]]; }
left() { echo $(( ${BUDGET:-570} - SECONDS )); }
step() { echo; echo "##### $* (t=${SECONDS}s)"; }

if want build; then
    step build; make -j16 all > /tmp/gchol_build.log 2>&1 || { tail -30 /tmp/gchol_build.log; exit 1; }
fi
if want test; then
    step test; make test > "$out/test.log" 2>&1; grep -E "^(testing|SUMMARY)|passed" "$out/test.log" | tail -n 12
fi
if want sanitize; then
    step sanitize; timeout ${SANITIZE_TIMEOUT:-330} sh testing/run_sanitize.sh > "$out/sanitize.log" 2>&1
    grep -E "SANITIZE|ERROR SUMMARY|RACECHECK SUMMARY|^ +[0-9]+ in " "$out/sanitize.log"
fi
if want demo; then
    step demo; ./benchmarks/demo_potrf -n 16384 > "$out/demo.log" 2>&1; cat "$out/demo.log"
fi
if want variants; then
    step "bench: every variant"
    ./benchmarks/bench_potrf -n 1024,4096,16384,32768 --prec ds --uplo L --variant all --niter 3 \
        --openblas --openblas-max 4096 --csv "$out/bench_variants.csv" > "$out/bench.log" 2>&1
    grep -vE '^#' "$out/bench.log" | grep -v '^$' | cut -c1-100 | tail -n 60
fi
if want sweep && [ "$(left)" -gt 150 ]; then
    step "bench: auto sweep"
    ./benchmarks/bench_potrf -n 1024,2048,4096,6144,8191,8192,8193,12288,16384,24576,32768,40960 --prec ds \
        --uplo LU --variant auto --niter 5 --csv "$out/bench_sweep.csv" >> "$out/bench.log" 2>&1
    grep -E '^ *[ds] +[0-9]+ [LU] auto' "$out/bench.log" | cut -c1-100 | tail -n 48
fi
if want host && [ "$(left)" -gt 90 ]; then
    step "bench: host interface (with transfers)"
    ./benchmarks/bench_potrf -n 1024,4096,8192,16384 --prec ds --uplo L --variant auto --host \
        --niter 3 --csv "$out/bench_host.csv" > "$out/bench_host.log" 2>&1
    grep -vE '^#' "$out/bench_host.log" | grep -v '^$' | cut -c1-100
fi
if want timeline && [ "$(left)" -gt 40 ]; then
    step timeline
    ./benchmarks/timeline_potrf -n 16384 --prec d --variant left --out "$out/tl" 2>&1 | tail -n 12
fi
if want large && [ "$(left)" -gt 80 ]; then
    step "large (n = 46500)"
    timeout $(( $(left) - 5 )) ./testing/testing_dpotrf --large 2>&1 | tail -n 4
fi
step done
