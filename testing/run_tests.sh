#!/bin/sh
# run_tests.sh -- runs every gchol tester (from the repository root), tees
# their output, and sums their SUMMARY lines. A tester that exits non-zero
# or prints no SUMMARY line counts as one failure. Exits non-zero if anything
# failed; the last line is "N passed, N failed, N skipped".
#
#   sh testing/run_tests.sh            (what `make test` runs)
#   TEST_TIMEOUT=3600 sh testing/run_tests.sh

cd "$(dirname "$0")/.." || exit 1

timeout_s=${TEST_TIMEOUT:-1800}
logdir=${TEST_LOGDIR:-testing/logs}
mkdir -p "$logdir" || exit 1

passed=0
failed=0
skipped=0

# run_one NAME COMMAND...: runs a tester, tees its output, adds its counts.
run_one() {
    name=$1
    shift
    log="$logdir/$name.log"
    echo "=== $*"
    if command -v timeout >/dev/null 2>&1; then
        set -- timeout "$timeout_s" "$@"
    fi
    # The exit status of the tester, not of tee, via a status file.
    { "$@" 2>&1; echo $? > "$log.rc"; } | tee "$log"
    rc=$(cat "$log.rc" 2>/dev/null || echo 1)
    rm -f "$log.rc"
    line=$(grep '^SUMMARY passed=[0-9]* failed=[0-9]* skipped=[0-9]*$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "*** $name: no SUMMARY line (exit status $rc): counted as 1 failed"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
    f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "*** $name: exit status $rc with no failed case: counted as 1 failed"
        failed=$((failed + 1))
    fi
}

run_one testing_host   ./testing/testing_host
run_one testing_host_stage ./testing/testing_host_stage
run_one testing_dpotrf ./testing/testing_dpotrf --suite
run_one testing_spotrf ./testing/testing_spotrf --suite
run_one testing_dsyrk_diag ./testing/testing_dsyrk_diag --suite
run_one testing_ssyrk_diag ./testing/testing_ssyrk_diag --suite
run_one testing_dpftrf ./testing/testing_dpftrf --suite
run_one testing_spftrf ./testing/testing_spftrf --suite
run_one testing_dsposv ./testing/testing_dsposv --suite
run_one testing_wls ./testing/testing_wls --suite
# every host-memory routine on arrays of LAPACK's extent against guard pages,
# through the pinned stager and through the driver's own pageable copies
run_one testing_dhost_bounds ./testing/testing_dhost_bounds
run_one testing_shost_bounds ./testing/testing_shost_bounds
run_one testing_dhost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick
run_one testing_shost_bounds_direct env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick
run_one testing_lapack_shim ./testing/testing_lapack_shim --suite
# the ILP64 symbols (dpotrf_64_ & co.): over the LP64 CPU LAPACK (narrowed),
# and over an ILP64 one (a stand-in that counts its calls)
run_one testing_lapack_shim_ilp64 ./testing/testing_lapack_shim --suite --ilp64
run_one testing_lapack_shim_cpu64 env GCHOL_LAPACK_CPU_LIB="$PWD/testing/cpu64_lapack.so" \
    ./testing/testing_lapack_shim --suite --quick --cpu64
run_one testing_preload sh testing/testing_preload.sh
# With a GPU, the shim's fallback once more with the GPU hidden from CUDA
# (without one, the run above has tested it already).
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    run_one testing_lapack_shim_hidden_gpu env CUDA_VISIBLE_DEVICES= \
        ./testing/testing_lapack_shim --suite --fallback
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
