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
#   sweep [L]                    issue 3's sweep (bench_potrf, n = 1023 ... 40960, both precisions
#                                and triangles, auto, median of 5) with its CSV, one line per cell
#   issue4_rows [L]              issue 4's benchmarks: bench_syrk_diag d and s (the four shapes, the
#                                four RFP variants), bench_pftrf d at 16384 / 32768 (every variant)
#                                (these two as the sessions from the twenty-seventh on spelled them
#                                out; make their benchmarks first)
#   alt_driver NAME [FLAGS...]   bench_potrf against a copy of lib/libgchol.a whose double
#                                driver (src/potrf_driver.c) is compiled with FLAGS (-D overrides
#                                of prec.h's knobs), as /tmp/ab/bench_potrf_NAME; binof NAME
#                                names it, binof base the tree's (the A/B preamble of the
#                                thirtieth session's call 2 and the thirty-first's call 9; as a
#                                function it has not run on the device yet, only here)
#   alt_kernel SRC               bench_potrf against a copy of lib/libgchol.a whose tiled kernel is
#                                SRC (an old kernels/potrf_tiled.cu carried as an ignored file), as
#                                /tmp/ab/bench_potrf_old; ab NAME ARGS... then runs it and the
#                                tree's bench_potrf with ARGS in alternating processes, two rounds,
#                                and prints each log's cells (the preamble that the thirty-third
#                                session's calls 4-7 spelled out; as functions they have not run on
#                                the device yet, only here)
#   gpu_suite [L [M...]]         every GPU tester of make test, full suites, in parallel groups
#                                (each stopped at L seconds into the call, default 480), memcheck
#                                of the quick suites of testers M (default dsyrk_diag,
#                                dhost_bounds, wls) beside them, then the shim's runs alone, the
#                                tally and the memcheck summaries (the commands that the
#                                twenty-fifth session's calls 5, 9, 11 and 13 spelled out; as a
#                                function it has not run on the device yet, only dry here)
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

sweep() {
    run bench_sweep --limit "${1:-300}" ./benchmarks/bench_potrf \
        -n 1023,1024,1025,2048,4095,4096,4097,6144,8191,8192,8193,12288,16384,24576,32768,40960 \
        --prec ds --uplo LU --variant auto --niter 5 --csv "$R/bench_sweep.csv"
    grep -E '^ *[ds] +[0-9]+ [LU] auto' "$R/bench_sweep.log" |
        awk '{printf "%s %s %s %s/%s=%s\n", $1, $2, $3, $9, $12, $15}' | paste -d' ' - - - -
    grep -iE "gemm|ceiling" "$R/bench_sweep.log" | head -3
}

issue4_rows() {
    local L=${1:-520} p
    for p in d s; do
        run bench_syrk_diag_$p --limit "$L" ./benchmarks/bench_syrk_diag --prec $p --all-rfp --runs 5 \
            --csv "$R/syrk_diag_$p.csv"
        grep -vE '^$' "$R/bench_syrk_diag_$p.log" | grep -v "^# [a-z]" | cut -c1-150
    done
    run bench_pftrf_d --limit "$L" ./benchmarks/bench_pftrf --sizes 16384,32768 --prec d --all-rfp \
        --form auto --csv "$R/pftrf_d.csv"
    grep -vE '^#|^$' "$R/bench_pftrf_d.log" | cut -c1-160
}

# bench_potrf linked against a copy of lib/libgchol.a with one member replaced by OBJ (the
# member keeps its name, so that ar replaces the tree's): /tmp/ab/bench_potrf_NAME
bench_with_member() {
    local name=$1 obj=$2
    local lk="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublasLt -lcublas -lcudart"
    lk="$lk -lpthread -lcusolver -llapacke -lopenblas -lm -lstdc++"
    cp lib/libgchol.a "/tmp/ab/lib$name.a" && ar r "/tmp/ab/lib$name.a" "$obj" || return 1
    cc -O2 -std=c11 -Wall -Wextra -Iinclude -Isrc -Ibenchmarks -I/usr/local/cuda/include \
        benchmarks/bench_potrf.c benchmarks/bench_common.c \
        -o "/tmp/ab/bench_potrf_$name" "/tmp/ab/lib$name.a" $lk
}
alt_driver() {
    local name=$1; shift
    local cf="-O2 -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I/usr/local/cuda/include"
    mkdir -p "/tmp/ab/$name"
    cc $cf -DGCHOL_PREC_D "$@" -c src/potrf_driver.c -o "/tmp/ab/$name/potrf_driver_d.o" || return 1
    bench_with_member "$name" "/tmp/ab/$name/potrf_driver_d.o"
}
alt_kernel() {
    local src=$1
    local cf="-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -fPIC -Iinclude"
    cf="$cf --expt-relaxed-constexpr -DGCHOL_GPU_ARCH=90"
    mkdir -p /tmp/ab/old /tmp/ab/oldk
    cp "$src" /tmp/ab/oldk/potrf_tiled.cu
    nvcc $cf -I/tmp/ab/oldk -Ikernels -c -x cu /tmp/ab/oldk/potrf_tiled.cu -o /tmp/ab/old/potrf_tiled.cu.o || return 1
    bench_with_member old /tmp/ab/old/potrf_tiled.cu.o
}
ab() {
    local name=$1 r f; shift
    for r in 1 2; do
        run ${name}_old_$r --limit 590 /tmp/ab/bench_potrf_old "$@"
        run ${name}_new_$r --limit 590 ./benchmarks/bench_potrf "$@"
    done
    for f in $R/${name}_*.log; do
        echo "$(basename $f .log): $(grep -E '^ *[ds] +[0-9]+ [LU] ' $f |
            awk '{printf "%s%s%s %s/%s=%s  ", $1, $2, $3, $9, $12, $15}')"
    done
}
binof() { case $1 in base) echo ./benchmarks/bench_potrf;; *) echo "/tmp/ab/bench_potrf_$1";; esac; }

gpu_suite() {
    local L=${1:-480} m
    [ $# -gt 0 ] && shift
    local mems=(dsyrk_diag dhost_bounds wls)
    [ $# -gt 0 ] && mems=("$@")
    export OPENBLAS_NUM_THREADS=2
    ( run testing_dpotrf --limit $L ./testing/testing_dpotrf --suite ) &
    ( run testing_spotrf --limit $L ./testing/testing_spotrf --suite; run testing_host --limit $L ./testing/testing_host ) &
    ( run testing_dpftrf --limit $L ./testing/testing_dpftrf --suite ) &
    ( run testing_spftrf --limit $L ./testing/testing_spftrf --suite ) &
    ( run testing_dsyrk_diag --limit $L ./testing/testing_dsyrk_diag --suite
      run testing_ssyrk_diag --limit $L ./testing/testing_ssyrk_diag --suite
      run testing_host_stage --limit $L ./testing/testing_host_stage ) &
    ( run testing_dsposv --limit $L ./testing/testing_dsposv --suite; run testing_wls --limit $L ./testing/testing_wls --suite ) &
    ( run testing_dhost_bounds --limit $L ./testing/testing_dhost_bounds
      run testing_shost_bounds --limit $L ./testing/testing_shost_bounds
      run testing_dhost_bounds_direct --limit $L env GCHOL_HOST_STAGE=0 ./testing/testing_dhost_bounds --quick
      run testing_shost_bounds_direct --limit $L env GCHOL_HOST_STAGE=0 ./testing/testing_shost_bounds --quick ) &
    ( for m in "${mems[@]}"; do
          local quick=(--suite --quick)
          case $m in *host_bounds) quick=(--quick) ;; esac
          run memcheck_$m --limit $L compute-sanitizer --tool memcheck --error-exitcode 1 ./testing/testing_$m "${quick[@]}"
      done ) &
    wait
    unset OPENBLAS_NUM_THREADS
    run testing_lapack_shim --limit 590 ./testing/testing_lapack_shim --suite
    run testing_lapack_shim_ilp64 --limit 590 ./testing/testing_lapack_shim --suite --ilp64
    run testing_lapack_shim_cpu64 --limit 590 env GCHOL_LAPACK_CPU_LIB="$PWD/testing/cpu64_lapack.so" ./testing/testing_lapack_shim --suite --quick --cpu64
    run testing_preload --limit 590 sh testing/testing_preload.sh
    run testing_lapack_shim_hidden_gpu --limit 590 env CUDA_VISIBLE_DEVICES= ./testing/testing_lapack_shim --suite --fallback
    tally
    for m in "${mems[@]}"; do echo "memcheck_$m: $(grep 'ERROR SUMMARY' "$R/memcheck_$m.log" | tail -1)"; done
}
