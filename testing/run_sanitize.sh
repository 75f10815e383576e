#!/bin/sh
# run_sanitize.sh -- runs the GPU test suites (reduced sizes: --suite --quick)
# under compute-sanitizer memcheck and racecheck. Prints one summary line per
# tool and exits non-zero on any error. Without compute-sanitizer or without
# a GPU it says so and exits 0 ("skipped").
#
#   sh testing/run_sanitize.sh         (what `make sanitize` runs)

cd "$(dirname "$0")/.." || exit 1

logdir=${TEST_LOGDIR:-testing/logs}
mkdir -p "$logdir" || exit 1

sanitizer=$(command -v compute-sanitizer 2>/dev/null)
if [ -z "$sanitizer" ]; then
    for d in "${CUDA_HOME:-}" /usr/local/cuda; do
        if [ -n "$d" ] && [ -x "$d/bin/compute-sanitizer" ]; then
            sanitizer="$d/bin/compute-sanitizer"
            break
        fi
    done
fi
if [ -z "$sanitizer" ]; then
    echo "compute-sanitizer not found: sanitize skipped"
    exit 0
fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "no GPU: sanitize skipped"
    exit 0
fi

status=0
for tool in memcheck racecheck; do
    errors=0
    for exe in testing_dpotrf testing_spotrf testing_dsyrk_diag testing_ssyrk_diag \
               testing_dpftrf testing_spftrf testing_dsposv testing_wls; do
        log="$logdir/sanitize_${tool}_$exe.log"
        echo "=== $tool: ./testing/$exe --suite --quick"
        "$sanitizer" --tool "$tool" --error-exitcode 1 ./testing/$exe --suite --quick \
            > "$log" 2>&1
        rc=$?
        grep -E '^SUMMARY|ERROR SUMMARY|RACECHECK SUMMARY|^=+ (Error|Race)' "$log" | tail -n 5
        if [ "$tool" = racecheck ]; then
            # racecheck exits non-zero on warnings too; only errors fail,
            # and the kernels behind any warning are listed for the record.
            grep -A3 -E '^=+ (Warning|Error):' "$log" | grep -oE 'in [A-Za-z_:<>0-9, ()*]+' \
                | sed 's/(.*//' | sort | uniq -c | sort -rn | head -n 8
            racerr=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9]*\) errors.*/\1/p' "$log" | tail -n 1)
            suite_ok=$(grep -c '^SUMMARY passed=[0-9]* failed=0 ' "$log")
            if [ "${racerr:-1}" = 0 ] && [ "$suite_ok" -ge 1 ]; then rc=0; fi
        fi
        if [ "$rc" -ne 0 ]; then
            echo "*** $tool on $exe: exit status $rc (see $log)"
            errors=$((errors + 1))
        fi
    done
    if [ "$errors" -eq 0 ]; then
        echo "SANITIZE $tool: ok"
    else
        echo "SANITIZE $tool: FAILED ($errors executable(s))"
        status=1
    fi
done
exit $status
