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
# memcheck and initcheck watch every kernel, cuBLAS's too: an out-of-bounds
# or uninitialized read there can come from gchol's arguments. racecheck and
# synccheck watch gchol's own kernels only (kernels/, named *_kernel): their
# findings are hazards inside one kernel's shared memory and barriers, which
# only that kernel's author can act on; the other kernels run unwatched. A
# tester marked race-all runs racecheck on every kernel: with the filter,
# racecheck stops on cuBLAS's FP16 / BF16 GEMMs ("failed to handle a hardware
# exception", a cuBLAS-only program alike), while watching them is clean.
#
#   sh testing/run_sanitize.sh                  (what `make sanitize` runs)
#   SANITIZE_TOOLS="memcheck" sh testing/run_sanitize.sh [NAME...]
#                   (NAME a tester, or one part of it: testing_dpftrf-5of10)
#   SANITIZE_JOBS=12 sh testing/run_sanitize.sh (tool x tester runs at once,
#                   the RFP and potrf testers first; lines follow the tools'
#                   order once all have run)
#
# A tester marked parts=K runs its quick suite as K runs (--part P/K, its
# cases dealt round), so that the slow tools' runs on the large suites go
# side by side; SANITIZE_SPLIT=M makes them K x M runs (racecheck on the
# batched testers: a third of a quick suite takes 3 to 6 minutes).

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

# NAME PARTS COMMAND of the testers marked sanitize (markers dropped; PARTS
# from parts=K, default 1), one a line
testers=$(sed -e 's/^[[:space:]]*//' -e '/^#/d' -e '/^$/d' "$list" | awk '
    { name = $1; keep = 0; parts = 1; i = 2
      while (i <= NF && ($i == "sanitize" || $i == "gpu-only" || $i == "exclusive" || $i == "race-all" ||
                         $i ~ /^parts=/)) {
          if ($i == "sanitize") keep = 1
          if ($i ~ /^parts=[1-9][0-9]*$/) parts = substr($i, 7) + 0
          i++ }
      if (!keep) next
      cmd = ""; for (; i <= NF; i++) cmd = cmd (cmd == "" ? "" : " ") $i
      print name " " parts " " cmd }')
if [ $# -gt 0 ]; then
    testers=$(echo "$testers" | while read -r n k c; do
        for a in "$@"; do
            case "$a" in "$n"|"$n"-[0-9]*of[0-9]*) echo "$n $k $c"; break ;; esac
        done
    done)
fi
[ -n "$testers" ] || { echo "no tester marked sanitize in $list"; exit 1; }
# the testers whose racecheck runs watch every kernel
race_all=" $(sed -e 's/^[[:space:]]*//' -e '/^#/d' "$list" | awk '
    { for (i = 2; i <= NF && ($i == "sanitize" || $i == "gpu-only" || $i == "exclusive" ||
                              $i == "race-all" || $i ~ /^parts=/); i++)
          if ($i == "race-all") { printf "%s ", $1; break } }') "

# the runs, one a line, RUN COMMAND: a tester in K parts (its suite's cases
# dealt round, --part P/K) is K runs, NAME-PofK; the RFP and potrf testers
# first, the longest
split=${SANITIZE_SPLIT:-1}
case "$split" in ''|*[!0-9]*|0) split=1 ;; esac
runs=$( (echo "$testers" | awk '$1 ~ /pftrf|potrf/'; echo "$testers" | awk '$1 !~ /pftrf|potrf/') | awk -v m="$split" '
    { k = $2 > 1 ? $2 * m : $2; cmd = ""; for (i = 3; i <= NF; i++) cmd = cmd (cmd == "" ? "" : " ") $i
      if (k <= 1) { print $1 " " cmd; next }
      for (p = 0; p < k; p++) print $1 "-" p "of" k " " cmd " --part " p "/" k }')

# a part named on the command line (NAME-PofK) runs alone of its tester's
if [ $# -gt 0 ]; then
    runs=$(echo "$runs" | while read -r r c; do
        case " $* " in *" $r "*|*" ${r%-[0-9]*of[0-9]*} "*) echo "$r $c" ;; esac
    done)
fi

use_timeout=0
command -v timeout >/dev/null 2>&1 && use_timeout=1

jobs=${SANITIZE_JOBS:-1}
case "$jobs" in ''|*[!0-9]*|0) jobs=1 ;; esac
rm -f "$logdir"/*.log "$logdir"/*.result "$logdir"/*.tmp "$logdir"/*.pid

# gchol's kernels, for racecheck's and synccheck's --kernel-name filter
own_kernels=$(grep -h -A3 '__global__' kernels/*.cu kernels/*.cuh 2>/dev/null |
    grep -oE '[A-Za-z_][A-Za-z_0-9]*_kernel\(' | sed 's/($//' | sort -u | tr '\n' '|' |
    sed 's/|$//')
[ -n "$own_kernels" ] || { echo "no __global__ *_kernel found in kernels/"; exit 1; }

# run_one TOOL NAME COMMAND: its line(s) to $logdir/TOOL_NAME.log.result
# (the first word "ok" or "bad"); may run in the background
run_one() {
    tool=$1 name=$2 cmd=$3
    case $tool in
        memcheck) extra="--leak-check full" ;;
        racecheck|synccheck) extra="--kernel-name regex=.*($own_kernels).*" ;;
        *) extra="" ;;
    esac
    case "$tool:$race_all" in
        racecheck:*" ${name%-[0-9]*of[0-9]*} "*) extra="" ;;
    esac
    log="$logdir/${tool}_$name.log"
    t0=$(date +%s)
    (
        eval "set -- $cmd --quick"
        set -f # the kernel filter is a regular expression, not a file pattern
        # the tools follow child processes too (their default
        # --target-processes all): mpirun's ranks
        if [ "$use_timeout" -eq 1 ]; then
            exec timeout "$timeout_s" "$sanitizer" --tool "$tool" $extra "$@"
        else
            exec "$sanitizer" --tool "$tool" $extra "$@"
        fi
    ) < /dev/null > "$log" 2>&1 &
    echo $! > "$log.pid"
    wait $!
    rc=$?
    rm -f "$log.pid"
    secs=$(( $(date +%s) - t0 ))
    # memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors";
    # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"
    if [ "$tool" = racecheck ]; then
        errors=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9]*\) errors*, \([0-9]*\) warnings*).*/\1/p' "$log" | tail -n 1)
        warnings=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9]*\) errors*, \([0-9]*\) warnings*).*/\2/p' "$log" | tail -n 1)
    else
        errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n 1)
        warnings=-
    fi
    # NCCL, setting up a communicator, asks cudaFuncGetAttributes about each
    # of its kernels and takes "no kernel image" for the ones not built for
    # this GPU in stride: the tools report each as an API error, raised and
    # handled inside ncclCommInitRank. Those are counted apart, not failed.
    nccl_probes=0
    if [ "$tool" != racecheck ] && [ -n "$errors" ] && [ "$errors" -ne 0 ]; then
        nccl_probes=$(awk '
            /^=+ Program hit / { flush(); rec = ($0 ~ /cudaErrorNoKernelImageForDevice/ &&
                                                 $0 ~ /cudaFuncGetAttributes/); init = 0; next }
            /Host Frame:.*ncclCommInitRank/ { init = 1 }
            function flush() { if (rec && init) n++; rec = 0; init = 0 }
            END { flush(); print n + 0 }' "$log")
        errors=$((errors - nccl_probes))
    fi
    summary=$(grep '^SUMMARY passed=[0-9]* failed=[0-9]* skipped=[0-9]*$' "$log" | tail -n 1)
    case_failed=$(echo "$summary" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
    status=ok
    why=""
    if [ "$rc" -eq 124 ]; then
        status=FAILED; errors=${errors:-?}; why="timed out after ${timeout_s} s"
    elif [ -z "$errors" ]; then
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
    {
        [ "$status" = ok ] && echo ok || echo bad
        [ "$nccl_probes" -gt 0 ] && why="${why:+$why; }$nccl_probes NCCL kernel probes apart"
        printf '  %-10s %-24s %8s %9s %6s %6s%s\n' "$tool" "$name" "$errors" "${warnings:-?}" \
            "${secs}s" "$status" "${why:+  ($why)}"
        if [ "$status" != ok ]; then
            grep -E '^=+ +(Error|Invalid|Leaked|Race|Barrier|Uninitialized)' "$log" | sort | uniq -c |
                sort -rn | head -n 8 | sed 's/^/      | /'
            grep -E '^=+ +at ' "$log" | sed 's/+0x[0-9a-f]*$//' | sort | uniq -c | sort -rn |
                head -n 4 | sed 's/^/      | /'
            echo "      (log: $log)"
        fi
        if [ "$tool" = racecheck ] && [ "${warnings:-0}" != 0 ]; then
            # the kernels behind the warnings, for the record
            grep -A3 -E '^=+ (Warning|Error):' "$log" | grep -oE 'in [A-Za-z_:<>0-9, ()*]+' |
                sed 's/(.*//' | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/      | /'
        fi
    } > "$log.result.tmp"
    mv "$log.result.tmp" "$log.result"
}

# stopped (a timeout, ^C): the runs in flight stop too (each run's pid file
# names its timeout, or the sanitizer itself, which stops its tester)
trap 'for f in "$logdir"/*.log.pid; do [ -e "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null; done; exit 143' TERM INT

nruns=0
echo "$runs" | {
    while read -r name cmd; do
        for tool in $tools; do
            nruns=$((nruns + 1))
            if [ "$jobs" -le 1 ]; then
                run_one "$tool" "$name" "$cmd"
                continue
            fi
            while [ $((nruns - 1 - $(ls "$logdir" | grep -c '\.log\.result$'))) -ge "$jobs" ]; do
                sleep 1
            done
            run_one "$tool" "$name" "$cmd" &
        done
    done
    wait
} &
wait $! # in the background, so that the trap above runs at once

printf '  %-10s %-24s %8s %9s %6s %6s\n' tool tester errors warnings time status
nbad=0
nruns=0
for tool in $tools; do
    echo "$runs" | while read -r name cmd; do
        tail -n +2 "$logdir/${tool}_$name.log.result" 2>/dev/null ||
            printf '  %-10s %-24s %8s %9s %6s %6s\n' "$tool" "$name" ? ? - "FAILED  (not run)"
    done
done
nruns=$(( $(echo "$runs" | wc -l) * $(echo $tools | wc -w) ))
nok=$(cat "$logdir"/*.log.result 2>/dev/null | grep -c '^ok$')
nbad=$((nruns - nok))
echo "sanitize: $nok ok, $nbad failed (of $nruns tool x tester runs)"
[ "$nbad" -eq 0 ]
