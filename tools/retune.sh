#!/bin/sh
# retune.sh -- re-measures the tuning tables of src/tune/ on the GPU of this
# machine, through the benchmark binaries, and prints the rows to paste into
# the architecture's table (src/tune/sm90.c, or a new file for a new GPU).
#
#   sh tools/retune.sh SWEEP [d|s] [--quick]
#
# SWEEPs (each names the table fields it re-measures):
#   potrf-switch  d|s  .tiled_below: the tiled kernel against left-looking
#                      1024 / 1024 with lookahead, n around the switch
#   potrf-blocks  d|s  .auto_rows: nb x recnb of left-looking with lookahead
#                      over the sizes above the switch (also shows where
#                      .gemm_wide_tile_ld pays: compare 16384-20480 runs)
#   potrf-host    d|s  .io_tiled_below: the host interface (pageable memory)
#                      with the tiled kernel against left-looking 1024 / 1024
#   syrk-diag     d|s  .syrk_diag_cublas_from_m / _max_aspect: gchol's kernel
#                      (its RFP form, which always runs the kernel) against
#                      cuBLAS dgmm + syrk on full storage
#   host-threads       .host_threads: GCHOL_HOST_THREADS 1..16, host potrf
#                      from pageable memory
#   host-blocks        .host_block_max_bytes: the streamed host syrk_diag
#                      with largest blocks of 128 MiB .. 1 GiB (needs
#                      bench_syrk_diag_host --chunk-bytes)
#   tiled-blocks  d|s  .kernel.tiled_one_block_up_to: the tiled kernel at one
#                      or two blocks per SM (needs bench_potrf
#                      --tiled-one-block-up-to)
#   all                every sweep above, both precisions
#
# Environment: BENCH_DIR (default build/benchmarks, else benchmarks/), OUT
# (folder for the CSV files, default a fresh one under /tmp), NITER (timed
# runs per point, default 5).

set -u
cd "$(dirname "$0")/.." || exit 1

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
case $1 in -h|--help) usage 0 ;; esac
sweep=$1; shift
prec=d
quick=0
for a in "$@"; do
    case $a in
    d|s) prec=$a ;;
    --quick) quick=1 ;;
    -h|--help) usage 0 ;;
    *) echo "retune: unknown argument $a" >&2; usage ;;
    esac
done

BENCH_DIR=${BENCH_DIR:-build/benchmarks}
[ -x "$BENCH_DIR/bench_potrf" ] || BENCH_DIR=benchmarks
OUT=${OUT:-$(mktemp -d /tmp/gchol_retune.XXXXXX)}
NITER=${NITER:-5}
mkdir -p "$OUT" || exit 1

need() {
    [ -x "$BENCH_DIR/$1" ] || { echo "retune: $BENCH_DIR/$1 not built (make bench)" >&2; exit 1; }
}
# whether binary $1 documents flag $2 in its --help
has_flag() { "$BENCH_DIR/$1" --help 2>&1 | grep -q -- "$2"; }

# bench_potrf's CSV: n,precision,uplo,variant,lookahead,nb,recnb,gchol_s,...
potrf_csv() { # $1: csv file; rest: bench_potrf arguments
    f=$1; shift
    "$BENCH_DIR/bench_potrf" --prec "$prec" --niter "$NITER" --csv "$f" "$@" >"$f.log" 2>&1 ||
        echo "retune: bench_potrf $* failed (see $f.log)" >&2
}

# Prints the first n from which the "b" file's time stays below the "a"
# file's: the switch from a to b. Columns: n (1) and seconds (8); rows of
# variant $3 in both (auto rows are tagged auto).
switch_point() { # $1 a.csv $2 b.csv $3 variant tag of a, $4 of b
    awk -F, -v ta="$3" -v tb="$4" '
        FNR == 1 { next }
        $4 == ta && FILENAME == ARGV[1] && $8 > 0 { a[$1] = $8 }
        $4 == tb && FILENAME == ARGV[2] && $8 > 0 { b[$1] = $8 }
        END {
            n = 0; for (k in a) if (k in b) keys[++n] = k + 0
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
            sw = ""
            for (i = n; i >= 1; i--) { if (b[keys[i]] < a[keys[i]]) sw = keys[i]; else break }
            for (i = 1; i <= n; i++)
                printf "#   n %6d  %s %.3f ms  %s %.3f ms\n", keys[i], ta, 1e3 * a[keys[i]],
                       tb, 1e3 * b[keys[i]]
            if (sw == "") print "#   (no switch in the range measured)"; else print sw
        }' "$1" "$2"
}

sizes_switch() {
    if [ "$prec" = d ]; then echo 3584:6656:256; else echo 6144:10752:512; fi
}

potrf_switch() {
    need bench_potrf
    a=$OUT/switch_tiled_$prec.csv b=$OUT/switch_left_$prec.csv
    potrf_csv "$a" -n "$(sizes_switch)" --variant tiled
    potrf_csv "$b" -n "$(sizes_switch)" --variant left --lookahead on --nb 1024 --recnb 1024
    echo "# potrf-switch $prec: tiled against left 1024 / 1024 (lower, median of $NITER)"
    switch_point "$a" "$b" tiled left | awk '/^#/ { print; next } { print "        .tiled_below = " $1 "," }'
}

potrf_host() {
    need bench_potrf
    a=$OUT/host_tiled_$prec.csv b=$OUT/host_left_$prec.csv
    potrf_csv "$a" -n "$(sizes_switch)" --variant tiled --host
    potrf_csv "$b" -n "$(sizes_switch)" --variant left --lookahead on --nb 1024 --recnb 1024 --host
    echo "# potrf-host $prec: host interface, tiled against left 1024 / 1024 (pageable)"
    switch_point "$a" "$b" host host | awk '/^#/ { print; next } { print "        .io_tiled_below = " $1 "," }'
}

potrf_blocks() {
    need bench_potrf
    if [ $quick = 1 ]; then n=12288,16384,24576; else
        n=8192,10240,12288,16384,20480,24576,27648,28672,30720,32768,36864,40960; fi
    if [ "$prec" = d ]; then nbs=768,1024,1536,2048; rec=256,512,1024
    else nbs=1024,1536,2048; rec=256,512,1024; fi
    f=$OUT/blocks_$prec.csv
    potrf_csv "$f" -n "$n" --variant left --lookahead on --nb "$nbs" --recnb "$rec" \
        --memory-max 120
    echo "# potrf-blocks $prec: left-looking with lookahead, best nb / recnb per n"
    awk -F, '
        FNR == 1 { next }
        $4 == "left" && $8 > 0 {
            if (!($1 in best) || $8 < best[$1]) { best[$1] = $8; pick[$1] = $6 " " $7 }
        }
        END {
            n = 0; for (k in best) keys[++n] = k + 0
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
            for (i = 1; i <= n; i++)
                printf "#   n %6d  nb / recnb %s  %.2f ms\n", keys[i], pick[keys[i]], 1e3 * best[keys[i]]
            print "        .auto_rows = {"
            print "            /* first row: below the tiled switch, as it is */"
            for (i = 1; i <= n; i++) {
                if (i < n && pick[keys[i + 1]] == pick[keys[i]]) continue
                split(pick[keys[i]], p, " ")
                below = i < n ? sprintf("%9d", keys[i + 1]) : "INT64_MAX"
                printf "            { %s, L, %4d, %4d, ON },\n", below, p[1], p[2]
            }
            print "        },"
        }' "$f"
}

syrk_diag() {
    need bench_syrk_diag
    f=$OUT/syrk_diag_$prec.csv
    shapes=1024:65536,2048:65536,4096:65536,4096:16384,8192:32768,8192:8192,16384:16384,16384:4096
    [ $quick = 1 ] && shapes=1024:65536,4096:65536,8192:32768,16384:16384
    "$BENCH_DIR/bench_syrk_diag" --prec "$prec" --runs "$NITER" --sizes "$shapes" --csv "$f" \
        >"$f.log" 2>&1 || echo "retune: bench_syrk_diag failed (see $f.log)" >&2
    echo "# syrk-diag $prec: gchol's kernel (RFP N,L) against cuBLAS dgmm + syrk (full)"
    # columns: m (1), n (2), gchol_rfp_s (7), cublas_syrk_s (9)
    awk -F, '
        FNR == 1 { next }
        $7 > 0 && $9 > 0 {
            k++; m[k] = $1; n[k] = $2; r = $9 / $7
            printf "#   %6d x %6d  kernel %.3f ms  cuBLAS %.3f ms  kernel %.2fx\n", $1, $2,
                   1e3 * $7, 1e3 * $9, r
            won[k] = r >= 1
            if (!won[k] && (from == "" || $1 + 0 < from)) from = $1 + 0
        }
        END {
            # from_m: the smallest m where cuBLAS won; max_aspect: below the
            # smallest ceil(n / m) at which the kernel still won from there on
            kmin = ""
            for (i = 1; i <= k; i++)
                if (from != "" && m[i] >= from && won[i]) {
                    a = int((n[i] + m[i] - 1) / m[i])
                    if (kmin == "" || a < kmin) kmin = a
                }
            print "        .syrk_diag_cublas_from_m = " (from == "" ? "INT64_MAX" : from) ","
            if (kmin == 1) print "#   (the kernel also won at n <= m from there: no one rule fits)"
            print "        .syrk_diag_cublas_max_aspect = " (kmin == "" || kmin == 1 ? 0 : kmin - 1) ","
        }' "$f"
}

host_threads() {
    need bench_potrf
    echo "# host-threads: host potrf from pageable memory, double, n = 16384"
    best="" bt=""
    for t in 1 2 4 8 12 16; do
        f=$OUT/threads_$t.csv
        (GCHOL_HOST_THREADS=$t; export GCHOL_HOST_THREADS; prec=d; potrf_csv "$f" -n 16384 --host)
        s=$(awk -F, '$4 == "host" && $8 > 0 { print $8 }' "$f" | head -n 1)
        echo "#   $t threads: ${s:-failed} s"
        if [ -n "$s" ] && { [ -z "$bt" ] || awk "BEGIN { exit !($s < $bt) }"; }; then
            best=$t bt=$s
        fi
    done
    echo "    .host_threads = ${best:-8},"
}

host_blocks() {
    need bench_syrk_diag_host
    if ! has_flag bench_syrk_diag_host --chunk-bytes; then
        echo "retune: host-blocks needs bench_syrk_diag_host --chunk-bytes (not in this build)" >&2
        return 1
    fi
    echo "# host-blocks: streamed syrk_diag from pinned memory, largest block bytes"
    for mib in 128 256 512 1024; do
        echo "## largest block $mib MiB"
        "$BENCH_DIR/bench_syrk_diag_host" --prec d --runs "$NITER" \
            --chunk-bytes $((mib * 1048576)) | grep -E '^m x n|A pinned'
    done
    echo "# paste the smallest bytes that is fastest at the large m: .host_block_max_bytes"
}

tiled_blocks() {
    need bench_potrf
    if ! has_flag bench_potrf --tiled-one-block-up-to; then
        echo "retune: tiled-blocks needs bench_potrf --tiled-one-block-up-to (not in this build)" >&2
        return 1
    fi
    a=$OUT/tiled_one_$prec.csv b=$OUT/tiled_two_$prec.csv
    potrf_csv "$a" -n 4096:7168:256 --variant tiled --tiled-one-block-up-to 16384
    potrf_csv "$b" -n 4096:7168:256 --variant tiled --tiled-one-block-up-to 1
    echo "# tiled-blocks $prec: tiled kernel at one block per SM against two"
    switch_point "$a" "$b" tiled tiled |
        awk '/^#/ { print; next } { print "        .tiled_one_block_up_to = " $1 - 1 "," }'
}

run() {
    case $1 in
    potrf-switch) potrf_switch ;;
    potrf-blocks) potrf_blocks ;;
    potrf-host)   potrf_host ;;
    syrk-diag)    syrk_diag ;;
    host-threads) host_threads ;;
    host-blocks)  host_blocks ;;
    tiled-blocks) tiled_blocks ;;
    *) echo "retune: unknown sweep $1" >&2; usage ;;
    esac
}

echo "# CSV and logs in $OUT"
if [ "$sweep" = all ]; then
    for prec in d s; do
        for s in potrf-switch potrf-host potrf-blocks syrk-diag tiled-blocks; do run $s; done
    done
    prec=d
    run host-threads
    run host-blocks
else
    run "$sweep"
fi
