#!/bin/bash
# run_rfp_h100.sh -- the A*D^2*A^T / RFP work in one GPU session: build, the
# four testers (--suite), compute-sanitizer on their --quick suites, the
# syrk_diag and pftrf benchmarks against cuBLAS / cuSOLVER, and the largest
# n that fits in RFP versus full storage. Logs and CSVs go to $OUT.
#   STEPS="build test sanitize bench maxn" (default: all), BUDGET=570 seconds
set -u
out=${OUT:-results}; mkdir -p "$out"
cd "$(dirname "$0")/.."
steps=${STEPS:-"build test sanitize bench maxn"}
left() { echo $(( ${BUDGET:-570} - SECONDS )); }
step() { echo; echo "##### $* (t=${SECONDS}s)"; }
want() { case " $steps " in *" $1 "*) return 0;; esac; return 1; }

if want build; then
    step build; make -j16 all > /tmp/gchol_build.log 2>&1 || { tail -30 /tmp/gchol_build.log; exit 1; }
fi
if want test; then
    step test
    for t in dsyrk_diag ssyrk_diag dpftrf spftrf; do
        timeout 200 ./testing/testing_$t --suite > "$out/test_$t.log" 2>&1
        echo "testing_$t: $(grep '^SUMMARY' "$out/test_$t.log" || echo 'no SUMMARY (crash/timeout)')"
        grep -E "FAILED" "$out/test_$t.log" | head -5
    done
    ./testing/testing_host > "$out/test_host.log" 2>&1; echo "testing_host: $(grep '^SUMMARY' "$out/test_host.log")"
fi
if want sanitize && [ "$(left)" -gt 150 ]; then
    step sanitize
    for t in dsyrk_diag dpftrf ssyrk_diag spftrf; do
        for tool in memcheck racecheck; do
            timeout 120 compute-sanitizer --tool $tool ./testing/testing_$t --quick > /tmp/san_$t_$tool.log 2>&1
            echo "$tool testing_$t: $(grep -E '^SUMMARY' /tmp/san_$t_$tool.log) | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san_$t_$tool.log | head -1)"
            cat /tmp/san_$t_$tool.log >> "$out/sanitize_rfp.log"
        done
    done
fi
if want bench && [ "$(left)" -gt 120 ]; then
    step "bench: syrk_diag"
    ./benchmarks/bench_syrk_diag --prec d --all-rfp --csv "$out/syrk_diag.csv" 2>&1 | tee "$out/bench_syrk_diag.log" | grep -v '^#'
    ./benchmarks/bench_syrk_diag --prec s --csv "$out/syrk_diag_s.csv" 2>&1 | tee -a "$out/bench_syrk_diag.log" | grep -v '^#'
    step "bench: pftrf"
    ./benchmarks/bench_pftrf --prec ds --all-rfp --csv "$out/pftrf.csv" 2>&1 | tee "$out/bench_pftrf.log" | grep -v '^#'
fi
if want maxn && [ "$(left)" -gt 100 ]; then
    step "largest n: RFP vs full"
    timeout $(( $(left) - 5 )) ./benchmarks/bench_pftrf --max-n --csv "$out/maxn.csv" 2>&1 | tee "$out/maxn.log" | tail -n 20
fi
step done
