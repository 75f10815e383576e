#!/bin/bash
# run_h100.sh -- everything that belongs in one GPU session, in priority
# order, with time guards so it fits a 10-minute device call: build, the
# test suite, compute-sanitizer, the demo, the benchmark rows (all variants),
# the auto sweep (both triangles, both precisions), a lookahead timeline and,
# if time is left, the n > 46341 case. Logs and CSVs go to $OUT (or results/).
set -u
out=${OUT:-results}; mkdir -p "$out"
cd "$(dirname "$0")/.."
left() { echo $(( ${BUDGET:-570} - SECONDS )); }
step() { echo; echo "##### $* (t=${SECONDS}s)"; }

step build;    make -j16 all > /tmp/gchol_build.log 2>&1 || { tail -30 /tmp/gchol_build.log; exit 1; }
step test;     make test > "$out/test.log" 2>&1; tail -n 1 "$out/test.log"
step sanitize; timeout 230 sh testing/run_sanitize.sh > "$out/sanitize.log" 2>&1
               grep -E "SANITIZE|ERROR SUMMARY|RACECHECK SUMMARY|^ +[0-9]+ in " "$out/sanitize.log"
               head -c 3000 testing/logs/sanitize_racecheck_testing_dpotrf.log >> "$out/sanitize.log" 2>/dev/null
step demo;     ./benchmarks/demo_potrf -n 16384 > "$out/demo.log" 2>&1; cat "$out/demo.log"
step "bench: every variant"
./benchmarks/bench_potrf -n 1024,4096,16384,32768 --prec ds --uplo L --variant all --niter 3 \
    --openblas --openblas-max 4096 --csv "$out/bench_variants.csv" > "$out/bench.log" 2>&1
grep -vE '^#' "$out/bench.log" | tail -n 45
if [ "$(left)" -gt 150 ]; then
    step "bench: auto sweep"
    ./benchmarks/bench_potrf -n 1024,2048,4096,8191,8192,8193,16384,32768,40960 --prec ds --uplo LU \
        --variant auto --niter 3 --csv "$out/bench_sweep.csv" >> "$out/bench.log" 2>&1
    grep -E '^ *[0-9]' "$out/bench.log" | tail -n 40
fi
if [ "$(left)" -gt 40 ]; then
    step timeline
    ./benchmarks/timeline_potrf -n 16384 --prec d --variant left --out "$out/tl" 2>&1 | tail -n 12
fi
if [ "$(left)" -gt 80 ]; then
    step "large (n = 46500)"
    timeout $(( $(left) - 5 )) ./testing/testing_dpotrf --large 2>&1 | tail -n 4
fi
step done
