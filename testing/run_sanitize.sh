#!/bin/sh
# run_sanitize.sh -- the GPU testers under compute-sanitizer: every tester
# marked `sanitize` in testing/testers.list runs its quick suite (its command
# with --quick appended) under memcheck (with --leak-check full), racecheck,
# synccheck and initcheck. Prints one line per tool and tester with the
# error count; logs in build/testing/logs/sanitize/TOOL_NAME.log. A run fails
# on any error the tool reports or any failed test case; racecheck's
# warnings (hazards it cannot prove) are counted but do not fail. Exits
# non-zero on any failure; without compute-sanitizer or without a GPU it
# says "skipped" and exits 0.
#
#   sh testing/run_sanitize.sh                  (what `make sanitize` runs)
#   SANITIZE_TOOLS="memcheck" sh testing/run_sanitize.sh [NAME...]
#   SANITIZE_JOBS=4 sh testing/run_sanitize.sh  (the tools side by side: each
#                   still runs its testers one after another; lines follow
#                   the tools' order once all have run)

cd "$(dirname "$0")/.." || exit 1

logdir=${TEST_LOGDIR:-build/testing/logs}/sanitize
list=${TEST_LIST:-testing/testers.list}
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
timeout_s=${TEST_TIMEOUT:-3600}
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

# NAME COMMAND of the testers marked sanitize (markers dropped), one a line
testers=$(sed -e 's/^[[:space:]]*//' -e '/^#/d' -e '/^$/d' "$list" | awk '
    { name = $1; keep = 0; i = 2
      while (i <= NF && ($i == "sanitize" || $i == "gpu-only" || $i == "exclusive")) { if ($i == "sanitize") keep = 1; i++ }
      if (!keep) next
      cmd = ""; for (; i <= NF; i++) cmd = cmd (cmd == "" ? "" : " ") $i
      print name " " cmd }')
if [ $# -gt 0 ]; then
    testers=$(echo "$testers" | while read -r n c; do
        case " $* " in *" $n "*) echo "$n $c" ;; esac
    done)
fi
[ -n "$testers" ] || { echo "no tester marked sanitize in $list"; exit 1; }

use_timeout=0
command -v timeout >/dev/null 2>&1 && use_timeout=1

jobs=${SANITIZE_JOBS:-1}
case "$jobs" in ''|*[!0-9]*|0) jobs=1 ;; esac
rm -f "$logdir"/.bad_* "$logdir"/.out_*
printf '  %-10s %-24s %8s %9s %6s\n' tool tester errors warnings status

# run_tool TOOL: its lines to $logdir/.out_TOOL, one line per failed run to
# $logdir/.bad_TOOL (run_tool may run in the background)
run_tool() {
    tool=$1
    case $tool in
        memcheck) extra="--leak-check full" ;;
        *) extra="" ;;
    esac
    echo "$testers" | {
        while read -r name cmd; do
            log="$logdir/${tool}_$name.log"
            (
                eval "set -- $cmd --quick"
                if [ "$use_timeout" -eq 1 ]; then
                    exec timeout "$timeout_s" "$sanitizer" --tool "$tool" $extra "$@"
                else
                    exec "$sanitizer" --tool "$tool" $extra "$@"
                fi
            ) < /dev/null > "$log" 2>&1
            rc=$?
            # memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors";
            # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"
            if [ "$tool" = racecheck ]; then
                errors=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9]*\) errors*, \([0-9]*\) warnings*).*/\1/p' "$log" | tail -n 1)
                warnings=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9]*\) errors*, \([0-9]*\) warnings*).*/\2/p' "$log" | tail -n 1)
            else
                errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n 1)
                warnings=-
            fi
            summary=$(grep '^SUMMARY passed=[0-9]* failed=[0-9]* skipped=[0-9]*$' "$log" | tail -n 1)
            case_failed=$(echo "$summary" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
            status=ok
            why=""
            if [ -z "$errors" ]; then
                status=FAILED; errors=?; why="no summary line from $tool (exit status $rc)"
            elif [ "$errors" -ne 0 ]; then
                status=FAILED
            elif [ -z "$summary" ]; then
                status=FAILED; why="the tester printed no SUMMARY line (exit status $rc)"
            elif [ "$case_failed" -ne 0 ]; then
                status=FAILED; why="$case_failed test case(s) failed"
            elif [ "$rc" -ne 0 ] && [ "$tool" != racecheck ]; then
                # racecheck exits non-zero on warnings alone
                status=FAILED; why="exit status $rc"
            fi
            printf '  %-10s %-24s %8s %9s %6s%s\n' "$tool" "$name" "$errors" "${warnings:-?}" "$status" \
                "${why:+  ($why)}"
            if [ "$status" != ok ]; then
                grep -E '^=+ +(Error|Invalid|Leaked|Race|Barrier|Uninitialized)' "$log" | sort | uniq -c |
                    sort -rn | head -n 8 | sed 's/^/      | /'
                echo "      (log: $log)"
            fi
            if [ "$tool" = racecheck ] && [ "${warnings:-0}" != 0 ]; then
                # the kernels behind the warnings, for the record
                grep -A3 -E '^=+ (Warning|Error):' "$log" | grep -oE 'in [A-Za-z_:<>0-9, ()*]+' |
                    sed 's/(.*//' | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/      | /'
            fi
            [ "$status" = ok ] || echo bad >> "$logdir/.bad_$tool"
        done
    } > "$logdir/.out_$tool"
}

running=0
for tool in $tools; do
    if [ "$jobs" -le 1 ]; then
        run_tool "$tool"
        cat "$logdir/.out_$tool"
        continue
    fi
    run_tool "$tool" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
done
wait
if [ "$jobs" -gt 1 ]; then
    for tool in $tools; do cat "$logdir/.out_$tool"; done
fi
nbad=$(cat "$logdir"/.bad_* 2>/dev/null | wc -l)
rm -f "$logdir"/.bad_* "$logdir"/.out_*
nruns=$(( $(echo "$testers" | wc -l) * $(echo $tools | wc -w) ))
echo "sanitize: $((nruns - nbad)) ok, $nbad failed (of $nruns tool x tester runs)"
[ "$nbad" -eq 0 ]
