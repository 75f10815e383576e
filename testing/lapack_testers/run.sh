#!/bin/sh
# run.sh -- LAPACK's own test programs on the routines of the LAPACK shim
# (build/lib/libgchol_lapack.so), with the input files of this folder:
#   xlintstd, xlintsts     the DPO / SPO paths (potrf, potrs, posv, posvx)
#   xlintstrfd, xlintstrfs RFP (pftrf, pftrs; also the RFP auxiliaries)
#   xlintstds              DSPOSV
# The programs come from Debian's liblapack-test (tools/check_deps.sh
# --install installs it); a program that is not installed reports skipped.
#
# Without a GPU (nvidia-smi lists none), each program runs plain (the
# system LAPACK) and under LD_PRELOAD of the shim with every call sent to
# the GPU (GCHOL_LAPACK=gpu, both minimum sizes 0), which falls back to the
# CPU LAPACK: the two outputs must be identical byte for byte once the
# timing line is masked, at threshold 30 and again at threshold 0, where
# every test's ratio is printed. With a GPU, the same comparison runs with
# GCHOL_LAPACK=cpu; then each program runs with GCHOL_LAPACK=gpu, minimum
# sizes 0 and GCHOL_LAPACK_VERBOSE=1, and the shim's lines on stderr must
# show calls run on the GPU and none that fell back to the CPU or failed.
#
# Counts: the tests that passed and failed LAPACK's threshold in each counted
# run (the shim's run at threshold 30; with a GPU also the GPU run); one
# failure more for a crash, a non-zero exit, a missing summary, an output
# that differs from the plain run, or a GPU run without GPU calls.
# Last line: SUMMARY passed=N failed=N skipped=N.
#
# Logs (program outputs, the error-exit tests' messages included):
# build/testing/logs/lapack_testers/PROGRAM.RUN.out and .err.
# Environment: LAPACK_TESTERS_DIR (the programs' directory; default: the
# first of /usr/lib/*/lapack, /usr/lib64/lapack, /usr/lib/lapack that holds
# xlintstd), LAPACK_TESTERS_TIMEOUT (seconds per run, default 600),
# LAPACK_TESTERS_LOGDIR.

cd "$(dirname "$0")/../.." || exit 1
here=testing/lapack_testers
shim=$PWD/build/lib/libgchol_lapack.so
logdir=${LAPACK_TESTERS_LOGDIR:-build/testing/logs/lapack_testers}
mkdir -p "$logdir" || exit 1

dir=${LAPACK_TESTERS_DIR:-}
if [ -z "$dir" ]; then
    for d in /usr/lib/*/lapack /usr/lib64/lapack /usr/lib/lapack; do
        if [ -x "$d/xlintstd" ]; then dir=$d; break; fi
    done
fi

if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then have_gpu=1; else have_gpu=0; fi
if [ "$have_gpu" -eq 1 ]; then
    compare_env="GCHOL_LAPACK=cpu"
    compare_what="GCHOL_LAPACK=cpu"
else
    compare_env="GCHOL_LAPACK=gpu GCHOL_LAPACK_MIN_N=0 GCHOL_LAPACK_MIN_N_SOLVE=0"
    compare_what="GCHOL_LAPACK=gpu, no GPU: the CPU fallback"
fi
gpu_env="GCHOL_LAPACK=gpu GCHOL_LAPACK_MIN_N=0 GCHOL_LAPACK_MIN_N_SOLVE=0 GCHOL_LAPACK_VERBOSE=1"

to=""
command -v timeout >/dev/null 2>&1 && to="timeout ${LAPACK_TESTERS_TIMEOUT:-600}"

now() { date +%s.%N 2>/dev/null | sed 's/\.N*$//'; }
t_start=$(now)
passed=0
failed=0
skipped=0

# run LABEL INPUT [VAR=VALUE...]: $prog with INPUT on stdin, its output in
# $logdir/$prog.LABEL.out and .err; the exit status is the program's.
run() {
    run_label=$1; run_input=$2; shift 2
    # shellcheck disable=SC2086 # $to is a command and its argument, or nothing
    $to env "$@" "$dir/$prog" < "$run_input" > "$logdir/$prog.$run_label.out" \
        2> "$logdir/$prog.$run_label.err"
}

# masked FILE: the file with the numbers of the timing line replaced
masked() { sed -E '/[Tt]ime/ { s/[0-9]+(\.[0-9]*)?/#/g; s/ +/ /g; }' "$1"; }
# plain_err FILE: stderr without the shim's own lines
plain_err() { grep -v '^gchol LAPACK shim: ' "$1"; }

# counts FILE: "PASSED FAILED COMPLETE" from LAPACK's summary lines of an
# output; COMPLETE is 0 when the output has no summary line or no "End of
# tests" (the program stopped early), else 1
counts() {
    awk '
    / out of .*(tests failed to pass the threshold|error message recorded)/ {
        s = $0; sub(/ +out of.*/, "", s); x = s; sub(/.* /, "", x)
        y = $0; sub(/.* out of +/, "", y); sub(/ .*/, "", y)
        f += x; p += y - x; n++; next
    }
    /error messages? recorded/ { s = $0; sub(/^ */, "", s); sub(/ .*/, "", s); f += s; n++; next }
    /passed/ && /tests run\)/ {
        s = $0; sub(/.*\( */, "", s); sub(/ .*/, "", s); p += s; n++; next
    }
    /passed the tests of the error exits/ { p++; n++; next }
    /failed the tests of the error/ { f++; n++; next }
    /Unrecognized path name|were not tested|Execution not attempted|Invalid input value/ { f++ }
    /End of tests/ { end = 1 }
    END { print p + 0, f + 0, (end && n > 0) ? 1 : 0 }' "$1"
}

# calls FILE: the shim's verbose lines of a run, "ROUTINE:WHERE COUNT" each
calls() {
    sed -n 's/^gchol LAPACK shim: \([A-Z0-9_]*\) n=.* info=-\{0,1\}[0-9]* \(.*\) [0-9.]* s$/\1:\2/p' "$1" |
        sed 's/ /_/g' | sort | uniq -c | awk '{ print $2, $1 }'
}
# where_count FILE WHERE: how many calls ran there (gpu, cpu, cpu_(gpu_unavailable), failed)
where_count() { calls "$1" | awk -v w="$2" '{ split($1, a, ":") } a[2] == w { c += $2 } END { print c + 0 }'; }
# by_routine FILE WHERE: "DPOTRF 12, DPOTRS 34" for the calls that ran there
by_routine() {
    calls "$1" | awk -v w="$2" '{ split($1, a, ":") } a[2] == w { s = s (s ? ", " : "") a[1] " " $2 }
                                END { print s }'
}

# fail WHAT: one failure, said on a FAILED line
fail() { echo "  FAILED  $prog: $*"; failed=$((failed + 1)); }

# same LABEL: the plain and the shim's outputs of LABEL agree (stdout masked,
# stderr without the shim's lines); else one failure and the first differences
same() {
    a=$logdir/$prog.$1.plain
    b=$logdir/$prog.$1.shim
    masked "$a.out" > "$a.out.masked"
    masked "$b.out" > "$b.out.masked"
    plain_err "$a.err" > "$a.err.masked"
    plain_err "$b.err" > "$b.err.masked"
    if cmp -s "$a.out.masked" "$b.out.masked" && cmp -s "$a.err.masked" "$b.err.masked"; then
        rm -f "$a.out.masked" "$b.out.masked" "$a.err.masked" "$b.err.masked"
        return 0
    fi
    fail "$1: the output under the shim differs from the plain run's"
    { diff "$a.out.masked" "$b.out.masked"; diff "$a.err.masked" "$b.err.masked"; } |
        head -n 10 | sed 's/^/          | /'
    echo "          (logs: $a.* $b.*)"
    return 1
}

# count_run LABEL RC: adds the run's counts, and one failure for a run that
# exited non-zero or stopped before its summary
count_run() {
    # shellcheck disable=SC2046 # three numbers
    set -- "$1" "$2" $(counts "$logdir/$prog.$1.out")
    passed=$((passed + $3))
    failed=$((failed + $4))
    run_passed=$3
    run_failed=$4
    if [ "$4" -ne 0 ]; then
        echo "  FAILED  $prog $1: $4 tests failed (log: $logdir/$prog.$1.out)"
        grep -E 'out of|failed|\*\*\*|Invalid|not tested|Unrecognized' "$logdir/$prog.$1.out" |
            head -n 10 | sed 's/^/          | /'
    fi
    if [ "$2" -ne 0 ] || [ "$5" -eq 0 ]; then
        run_failed=$((run_failed + 1))
        fail "$1: exit status $2$([ "$5" -eq 0 ] && echo ", no summary or no 'End of tests'")"
        tail -n 5 "$logdir/$prog.$1.err" | sed 's/^/          | /'
    fi
}

echo "LAPACK's test programs under the shim ($shim)"
if [ -z "$dir" ]; then
    echo "  LAPACK's test programs not found (Debian: apt-get install liblapack-test, or"
    echo "  set LAPACK_TESTERS_DIR): every program skipped"
else
    echo "  programs: $dir"
    echo "  cpu path: $compare_what; compared with the plain run at thresholds 30 and 0"
    [ "$have_gpu" -eq 1 ] && echo "  gpu: $gpu_env"
fi

for entry in "xlintstd dtest_po.in DPO" "xlintsts stest_po.in SPO" \
             "xlintstrfd dtest_rfp.in DPF" "xlintstrfs stest_rfp.in SPF" \
             "xlintstds dstest_po.in DSPOSV"; do
    # shellcheck disable=SC2086 # three words
    set -- $entry
    prog=$1; input=$here/$2; what=$3
    if [ -z "$dir" ] || [ ! -x "$dir/$prog" ]; then
        [ -n "$dir" ] && echo "  skipped $prog: not in $dir"
        skipped=$((skipped + 1))
        continue
    fi
    if [ ! -r "$shim" ]; then
        fail "$shim is missing (make lib)"
        continue
    fi
    t0=$(now)
    failed_before=$failed
    zero=$logdir/$prog.zero.in    # the input at threshold 0: every ratio printed
    sed 's/^[0-9.]*\( *Threshold value\)/0.0 \1/' "$input" > "$zero"

    # the CPU path, against the same program without the shim
    # shellcheck disable=SC2086 # $compare_env: VAR=VALUE words
    {
        run thresh.plain "$input"
        run thresh.shim "$input" LD_PRELOAD="$shim" $compare_env GCHOL_LAPACK_VERBOSE=1; rc=$?
        run ratios.plain "$zero"
        run ratios.shim "$zero" LD_PRELOAD="$shim" $compare_env
    }
    count_run thresh.shim "$rc"
    identical=1
    same thresh || identical=0
    same ratios || identical=0
    shim_calls=$(calls "$logdir/$prog.thresh.shim.err" | awk '{ c += $2 } END { print c + 0 }')
    if [ "$rc" -eq 0 ] && [ "$shim_calls" -eq 0 ]; then
        fail "no call went through the shim (LD_PRELOAD=$shim: see $logdir/$prog.thresh.shim.err)"
    fi
    cpu_line="$run_passed passed, $run_failed failed; $shim_calls calls through the shim"
    [ "$identical" -eq 1 ] && cpu_line="$cpu_line; identical to the plain run"

    gpu_line=""
    if [ "$have_gpu" -eq 1 ]; then
        # shellcheck disable=SC2086
        run gpu "$input" LD_PRELOAD="$shim" $gpu_env; rc=$?
        count_run gpu "$rc"
        err=$logdir/$prog.gpu.err
        n_gpu=$(where_count "$err" gpu)
        n_cpu=$(where_count "$err" cpu)
        n_fallback=$(where_count "$err" "cpu_(gpu_unavailable)")
        n_failed=$(where_count "$err" failed)
        [ "$rc" -ne 0 ] || [ "$n_gpu" -gt 0 ] || fail "GCHOL_LAPACK=gpu: no call ran on the GPU (log: $err)"
        [ "$n_fallback" -eq 0 ] || fail "GCHOL_LAPACK=gpu: $n_fallback calls fell back to the CPU (log: $err)"
        [ "$n_failed" -eq 0 ] || fail "GCHOL_LAPACK=gpu: $n_failed calls failed (log: $err)"
        gpu_line="$run_passed passed, $run_failed failed; GPU calls: $n_gpu ($(by_routine "$err" gpu)); CPU calls (n = 0, illegal arguments): $n_cpu"
    fi

    secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    status=ok
    [ "$failed" -ne "$failed_before" ] && status=FAILED
    printf '  %-6s  %-10s %-6s %5s s  %s: %s\n' "$status" "$prog" "$what" "$secs" "cpu path" "$cpu_line"
    [ -n "$gpu_line" ] && printf '  %-6s  %-10s %-6s %5s    %s: %s\n' "$status" "$prog" "$what" "" "gpu" "$gpu_line"
done

secs=$(awk -v a="$t_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
echo "  (logs: $logdir; $secs s)"
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]
