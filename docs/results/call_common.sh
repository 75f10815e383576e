#!/bin/bash
# Shared preamble of the device-call scripts (docs/results/sNN/src/cN.sh), from the
# twenty-fifth session on: source it with the call's name, e.g.
#   source docs/results/call_common.sh c5 [make targets...]
# It loads the staged OpenBLAS / LAPACKE (.deps), puts the CUDA libraries first, makes the
# targets (default: all) with the log under $OUT/<call>/, and defines:
#   run NAME [--limit S] CMD...  run CMD, log to $R/NAME.log (with its rc), print its SUMMARY
#                                line; stops it at S seconds into the call (default 480)
#   tally                        sum the SUMMARY lines of $R/testing_*.log: "TOTAL p passed, ..."
#   finish                       gzip the logs and pack $R into $OUT/<call>.tgz
set -u
CALL=${1:?call name}; shift
source .deps/env.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$SECONDS; R=$OUT/$CALL; mkdir -p "$R"
nvidia-smi -L
make -j16 "${@:-all}" > "$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
echo "build t=$((SECONDS-S))"; rm -f "$R/build.log"

run() {
    local name=$1 limit=480; shift
    if [ "${1:-}" = --limit ]; then limit=$2; shift 2; fi
    timeout $((limit - SECONDS > 1 ? limit - SECONDS : 1)) "$@" > "$R/$name.log" 2>&1
    echo "rc=$?" >> "$R/$name.log"
    echo "$name t=$((SECONDS-S)) $(grep -E '^SUMMARY|ERROR SUMMARY|RACECHECK SUMMARY' "$R/$name.log" | tail -1)"
}

tally() {
    local p=0 f=0 s=0 l line
    for l in "$R"/testing_*.log; do
        line=$(grep '^SUMMARY passed=' "$l" | tail -1)
        if [ -z "$line" ]; then echo "$(basename "$l" .log): no SUMMARY"; f=$((f + 1)); continue; fi
        p=$((p + $(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')))
        f=$((f + $(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')))
        s=$((s + $(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')))
    done
    echo "TOTAL $p passed, $f failed, $s skipped"
    grep -h "FAILED" -A1 "$R"/*.log | head -20
}

finish() {
    gzip -9 -n "$R"/*.log 2>/dev/null
    tar czf "$OUT/$CALL.tgz" -C "$OUT" "$CALL" && rm -rf "$R"
}
