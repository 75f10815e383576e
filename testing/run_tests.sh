#!/bin/sh
# run_tests.sh -- runs the testers listed in testing/testers.list (from the
# repository root) and sums their SUMMARY lines. Prints one line per tester
# (its passed / failed / skipped counts and seconds); its whole output goes
# to build/testing/logs/NAME.log, and for a failing tester the log's FAILED
# lines are shown. A tester that exits non-zero with no failed case, or
# prints no SUMMARY line, counts as one failure. Exits non-zero if anything
# failed; the last line is "N passed, N failed, N skipped".
#
#   sh testing/run_tests.sh              every tester (what `make test` runs)
#   sh testing/run_tests.sh NAME...      only these (names from testers.list)
#
# Environment: TEST_TIMEOUT (seconds per tester, default 1800), TEST_LOGDIR
# (default build/testing/logs), TEST_LIST (default testing/testers.list),
# TEST_JOBS (testers run at once, default 1; the lines then follow the list's
# order once all have run, and a tester marked `exclusive` runs alone),
# TEST_SPLIT (1: with TEST_JOBS > 1, a tester marked parts=K runs as K runs
# side by side, NAME-PofK with --part P/K; each part repeats the tester's
# host-side checks, so the passed count exceeds the whole tester's by those).

cd "$(dirname "$0")/.." || exit 1

timeout_s=${TEST_TIMEOUT:-1800}
jobs=${TEST_JOBS:-1}
case "$jobs" in ''|*[!0-9]*|0) jobs=1 ;; esac
logdir=${TEST_LOGDIR:-build/testing/logs}
list=${TEST_LIST:-testing/testers.list}
mkdir -p "$logdir" || exit 1
[ -r "$list" ] || { echo "run_tests.sh: cannot read $list"; exit 1; }

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    have_gpu=1
else
    have_gpu=0
fi
use_timeout=0
command -v timeout >/dev/null 2>&1 && use_timeout=1

now() { date +%s.%N 2>/dev/null | sed 's/\.N*$//'; }

passed=0
failed=0
skipped=0

# wanted NAME: the command line named no testers, or named this one
wanted() {
    [ -z "$selection" ] && return 0
    case " $selection " in *" $1 "*) return 0 ;; esac
    return 1
}
selection="$*"

# run_one NAME COMMAND-LINE: runs it; its line(s) and counts go to
# LOG.result, which report_one prints and adds up (run_one may run in the
# background: it changes no variable of the caller).
run_one() {
    name=$1
    cmd=$2
    log="$logdir/$name.log"
    res="$log.result"
    t0=$(now)
    (
        eval "set -- $cmd"
        if [ "$use_timeout" -eq 1 ]; then
            exec timeout "$timeout_s" "$@"
        else
            exec "$@"
        fi
    ) < /dev/null > "$log" 2>&1
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    line=$(grep '^SUMMARY passed=[0-9]* failed=[0-9]* skipped=[0-9]*$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        why="no SUMMARY line, exit status $rc"
        [ "$rc" -eq 124 ] && why="timed out after ${timeout_s} s"
        {
            printf '  %-32s %6s %6s %6s %7s s  FAILED (%s)\n' "$name" - - - "$secs" "$why"
            tail -n 15 "$log" | sed 's/^/      | /'
            echo "      (log: $log)"
            echo "COUNTS 0 1 0"
        } > "$res"
        return
    fi
    p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
    f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    note=""
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        note="  (exit status $rc with no failed case: counted as 1 failed)"
    fi
    status=ok
    [ "$f" -ne 0 ] && status=FAILED
    {
        printf '  %-32s %6d %6d %6d %7s s  %s%s\n' "$name" "$p" "$f" "$s" "$secs" "$status" "$note"
        if [ "$f" -ne 0 ]; then
            grep -E '(^|[^A-Za-z])FAILED([^A-Za-z]|$)|^\*\*\*' "$log" | head -n 25 | sed 's/^/      | /'
            echo "      (log: $log)"
        fi
        echo "COUNTS $p $f $s"
    } > "$res"
}

# report_one NAME: prints run_one's lines for NAME and adds its counts.
report_one() {
    res="$logdir/$1.log.result"
    if [ ! -r "$res" ]; then
        printf '  %-32s FAILED (no result)\n' "$1"
        failed=$((failed + 1))
        return
    fi
    grep -v '^COUNTS ' "$res"
    set -- $(sed -n 's/^COUNTS //p' "$res")
    passed=$((passed + $1))
    failed=$((failed + $2))
    skipped=$((skipped + $3))
    rm -f "$res"
}

# Parallel runs (TEST_JOBS > 1): the running testers' names, one a line.
running=""
running_count() { [ -z "$running" ] && echo 0 || printf '%s\n' $running | wc -l; }
# reap: forgets the testers whose result is written
reap() {
    still=""
    for n in $running; do
        [ -e "$logdir/$n.log.result" ] || still="$still $n"
    done
    running=$still
}
# wait_below K: until fewer than K testers run
wait_below() {
    reap
    while [ "$(running_count)" -ge "$1" ]; do
        sleep 1
        reap
    done
}

printf '  %-32s %6s %6s %6s %9s\n' tester passed failed skipped time
ran=""
order=""
while IFS= read -r entry || [ -n "$entry" ]; do
    entry=$(printf '%s\n' "$entry" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
    case "$entry" in ''|'#'*) continue ;; esac
    name=${entry%%[[:space:]]*}
    cmd=$(printf '%s\n' "$entry" | sed 's/^[^[:space:]]*[[:space:]]*//')
    gpu_only=0
    exclusive=0
    nparts=1
    while :; do
        word=${cmd%%[[:space:]]*}
        case "$word" in
            gpu-only) gpu_only=1 ;;
            exclusive) exclusive=1 ;;
            parts=*) nparts=${word#parts=} ;;
            sanitize|race-all) ;;
            *) break ;;
        esac
        cmd=$(printf '%s\n' "$cmd" | sed 's/^[^[:space:]]*[[:space:]]*//')
    done
    wanted "$name" || continue
    ran="$ran $name"
    if [ -z "$cmd" ]; then
        printf '  %-32s FAILED (no command in %s)\n' "$name" "$list"
        failed=$((failed + 1))
        continue
    fi
    if [ "$gpu_only" -eq 1 ] && [ "$have_gpu" -eq 0 ]; then
        printf '  %-32s %6s %6s %6s %9s  not run (needs a GPU)\n' "$name" - - - -
        continue
    fi
    rm -f "$logdir/$name.log.result"
    if [ "$jobs" -le 1 ]; then
        run_one "$name" "$cmd"
        report_one "$name"
    elif [ "$exclusive" -eq 1 ]; then
        wait_below 1
        run_one "$name" "$cmd"
    elif [ "${TEST_SPLIT:-0}" = 1 ] && [ "$nparts" -gt 1 ] 2>/dev/null; then
        p=0
        while [ "$p" -lt "$nparts" ]; do
            part="$name-${p}of$nparts"
            rm -f "$logdir/$part.log.result"
            wait_below "$jobs"
            run_one "$part" "$cmd --part $p/$nparts" &
            running="$running $part"
            order="$order $part"
            p=$((p + 1))
        done
        continue
    else
        wait_below "$jobs"
        run_one "$name" "$cmd" &
        running="$running $name"
    fi
    order="$order $name"
done < "$list"
if [ "$jobs" -gt 1 ]; then
    wait
    for n in $order; do report_one "$n"; done
fi

for n in $selection; do
    case " $ran " in
        *" $n "*) ;;
        *) printf '  %-32s FAILED (not in %s)\n' "$n" "$list"; failed=$((failed + 1)) ;;
    esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
