#!/bin/sh
# report.sh -- `make bench-report`: the standard benchmark sweeps on this machine's GPU, each
# benchmark's CSV in docs/perf/<gpu>/, the PNG plots beside them, and the tables of
# docs/performance.md regenerated from them (benchmarks/report_tables.py).
#
#   sh benchmarks/report.sh            # the whole report (each step at most STEP_TIMEOUT)
#   QUICK=1 sh benchmarks/report.sh    # a few sizes each: a smoke test of a minute or two
#   REPORT_STEPS="xposv wls_seed" sh benchmarks/report.sh   # only these steps; the tables are
#                                      # written from every CSV in OUT_DIR, the others' as they are
#
# Settings (environment; paths relative to the repository root):
#   BENCH_DIR     the benchmark binaries (default build/benchmarks, else benchmarks/)
#   OUT_DIR       CSVs, PNGs, tables.md, system.txt (default docs/perf/<gpu slug>;
#                 with QUICK=1 build/perf-quick/<gpu slug>)
#   LOG_DIR       each benchmark's output (default build/report-logs)
#   DOC           Markdown whose `<!-- BEGIN report:NAME -->` blocks of this GPU's section are
#                 regenerated (default docs/performance.md; with QUICK=1 none; empty: none)
#   STEP_TIMEOUT  seconds one benchmark may run (default 300)
#   MP_WEAK_SOURCE  bench_mp_potrf's --source in the weak-scaling steps (default auto: each
#                 rank's part kept in host memory; gen: regenerated before each run, for hosts
#                 with less than about 106 GB a GPU)
#   PYTHON        the Python for tables, plots and the PyTorch peer of the batched Cholesky
#                 (default python3; without PyTorch built with CUDA, the steps
#                 potrf_batched_torch_d and _s say "no torch" and the tables leave it out)
# The GPU slug is h200, h100, a100, ... or the sanitized name from nvidia-smi (GPU_NAME
# overrides it). OpenBLAS runs on the host cores: set OPENBLAS_CORETYPE when OpenBLAS does
# not recognise the CPU (the report records the core it ran).
# Plots or tables alone, from the CSVs: python3 benchmarks/report_tables.py --plots OUT_DIR,
# python3 benchmarks/report_tables.py --tables --doc docs/performance.md OUT_DIR.
# When a benchmark fails, DOC is left alone (the tables still go to OUT_DIR/tables.md).
# Exit status: 0 when every benchmark ran and wrote its CSV (where PyTorch or mpirun is
# missing, their steps are left out), 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
QUICK=${QUICK:-0}
PYTHON=${PYTHON:-python3}
STEP_TIMEOUT=${STEP_TIMEOUT:-300}
LOG_DIR=${LOG_DIR:-build/report-logs}

# --- the GPU and where its results go -----------------------------------------------------
smi=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
gpu=${GPU_NAME:-$(echo "$smi" | cut -d, -f1 | sed 's/^ *//; s/ *$//')}
driver=$(echo "$smi" | cut -s -d, -f2 | sed 's/^ *//; s/ *$//')
cuda_driver=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n 1)
if [ -z "$gpu" ]; then
    echo "report: nvidia-smi names no GPU; the benchmarks need one (GPU_NAME sets the name)"
    gpu="unknown GPU"
fi
lower=$(echo "$gpu" | tr '[:upper:]' '[:lower:]')
case $lower in
    *gh200*) slug=gh200 ;;
    *h200*)  slug=h200 ;;
    *h100*)  slug=h100 ;;
    *a100*)  slug=a100 ;;
    *) slug=$(echo "$lower" | sed 's/^nvidia[ -]*//; s/[^a-z0-9][^a-z0-9]*/-/g; s/^-//; s/-$//') ;;
esac
if [ "$QUICK" = 1 ]; then
    OUT_DIR=${OUT_DIR:-build/perf-quick/$slug}
    DOC=${DOC-}
else
    OUT_DIR=${OUT_DIR:-docs/perf/$slug}
    DOC=${DOC-docs/performance.md}
fi
if [ -z "${BENCH_DIR:-}" ]; then
    BENCH_DIR=build/benchmarks
    [ ! -x "$BENCH_DIR/bench_potrf" ] && [ -x benchmarks/bench_potrf ] && BENCH_DIR=benchmarks
fi
mkdir -p "$OUT_DIR" "$LOG_DIR" || exit 1
TIMEOUT=
command -v timeout > /dev/null 2>&1 && TIMEOUT="timeout $STEP_TIMEOUT"

# --- the sweeps ----------------------------------------------------------------------------
# Sizes and runs keep the whole report under 10 minutes on an H200: the largest potrf (40960)
# takes ~0.5 s a run, and OpenBLAS runs only up to n = 8192 (dpotrf ~0.4 s a run on 16 cores);
# the seed's tables run OpenBLAS up to m = 16384 once a size (~10 s).
POTRF_N=1024,2048,4096,8192,12288,16384,24576,32768,40960
OPENBLAS_MAX=8192
GEMM_N=16384
SHAPES=1024x65536,4096x65536,8192x32768,16384x16384
PFTRF_N=16384,32768
POSV_N=1024,2048,4096,8192,16384,32768
XPOSV_N=8192,16384,32768,40960 XPOSV16_N=16384,32768 KAPPA_N=16384,32768
BATCHED_N=4,8,16,32,64,128,256,512 BATCHED_SIZING="--bytes 2147483648 --small 100"
SEED_M=512,1024,1536,2048,8192,16384
SHIM_N=128,256,384,512,768,1024,1536,2048,3072,4096,8192
SHIM_SOLVE="--solve-n 1024,4096,8192 --posv-n 256,1024,4096,8192 --nrhs 1,16,64,256"
# weak scaling: n for 1, 2, 4 and 8 GPUs, about 106 GB of double a GPU
MP_ONE_N=32768,65536 MP_ALL_N=65536,131072 MP_ALL_S_N=131072 MP_TIMELINE_N=65536
MP_WEAK_N=114688,162816,229376,324608 MP_WEAK_SOURCE=${MP_WEAK_SOURCE:-auto}
LLT_N=16384,32768,65536 LLT_CPU_N=16384
# the batch of 100 runs for about 10 us, a fifth more or less from launch to launch
NITER=3 RUNS=5 SMALL_NITER=51
if [ "$QUICK" = 1 ]; then
    POTRF_N=1024,4096,16384 OPENBLAS_MAX=4096
    SHAPES=1024x65536,8192x32768 PFTRF_N=16384 POSV_N=1024,4096,16384
    XPOSV_N=8192,16384 XPOSV16_N=8192 KAPPA_N=4096 SEED_M=512,1024,2048 BATCHED_N=8,32,128
    SHIM_N=256,1024,4096 SHIM_SOLVE="--solve-n 1024,4096 --posv-n 1024,4096 --nrhs 1,64"
    MP_ONE_N=16384 MP_ALL_N=32768 MP_ALL_S_N=32768 MP_TIMELINE_N=16384
    MP_WEAK_N=16384,23040,32768,46080 LLT_N=8192 LLT_CPU_N=4096
    RUNS=3
fi

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
cat > "$OUT_DIR/system.txt" <<EOF
gpu: $gpu
slug: $slug
driver: $driver
cuda_driver: $cuda_driver
cpu: ${cpu:-unknown CPU}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores
date: $(date -u +%Y-%m-%d)
quick: $QUICK
gemm_n: $GEMM_N
openblas_max: $OPENBLAS_MAX
niter: $NITER
runs: $RUNS
small_niter: $SMALL_NITER
EOF

STEPS=$LOG_DIR/steps.txt
: > "$STEPS"
failed=0
start=$(date +%s)

# run_step NAME CSV WHY COMMAND ARGS...: runs COMMAND ARGS --csv OUT_DIR/CSV, output to
# LOG_DIR/NAME.log, unless WHY (a status: why it cannot run) is set; records status, seconds
# and CSV rows in STEPS. A step that cannot run fails the report, except "no torch".
run_step() {
    name=$1 csv=$OUT_DIR/$2 why=$3
    shift 3
    t0=$(date +%s)
    echo "report: [$((t0 - start)) s] $name: $* --csv $csv"
    rm -f "$csv"
    rc=none
    if [ -z "$why" ]; then
        # shellcheck disable=SC2086  # LAUNCH: mpirun and its options, or nothing
        $TIMEOUT ${LAUNCH:-} "$@" --csv "$csv" > "$LOG_DIR/$name.log" 2>&1
        rc=$?
    else
        case $why in
            "not built") hint="run make first, or set BENCH_DIR" ;;
            "no torch") hint="$PYTHON cannot import PyTorch built with CUDA" ;;
            *) hint= ;;
        esac
        echo "$*: $why${hint:+ ($hint)}" > "$LOG_DIR/$name.log"
    fi
    rows=0
    [ -f "$csv" ] && rows=$(($(wc -l < "$csv") - 1))
    if [ "$rc" = 0 ] && [ "$rows" -gt 0 ]; then
        status=ok
    elif [ "$why" = "no torch" ]; then
        status=$why  # an optional peer, like mpirun: its absence is no failure
    else
        case $rc in
            none) status=$why ;;
            0) status="no rows" ;;
            2) status="exit 2"
               grep -q 'CUDA GPU is required' "$LOG_DIR/$name.log" && status="no GPU" ;;
            124) status="timed out" ;;
            *) status="exit $rc"
               grep -q 'no CUDA device' "$LOG_DIR/$name.log" && status="no GPU" ;;
        esac
        failed=1
        echo "report: $name FAILED ($status); last lines of $LOG_DIR/$name.log:"
        tail -n 5 "$LOG_DIR/$name.log" | sed 's/^/    /'
    fi
    printf '%-21s %-10s %5s %5s\n' "$name" "$status" "$(($(date +%s) - t0))" "$rows" >> "$STEPS"
}

# selected NAME: REPORT_STEPS (default: every step) names NAME
selected() {
    case " ${REPORT_STEPS:-$1} " in *" $1 "*) return 0 ;; esac
    return 1
}

# step NAME CSV BINARY ARGS...: run_step on BENCH_DIR/BINARY
step() {
    selected "$1" || return 0
    name=$1 csv=$2 bin=$BENCH_DIR/$3
    shift 3
    why=
    [ -x "$bin" ] || why="not built"
    run_step "$name" "$csv" "$why" "$bin" "$@"
}

# step_torch NAME CSV SCRIPT ARGS...: run_step on PYTHON SCRIPT (unbuffered, so that the log
# keeps the rows of a run cut off), status "no torch" where PYTHON cannot import PyTorch built
# with CUDA (checked once)
step_torch() {
    selected "$1" || return 0
    if [ -z "${torch_why+set}" ]; then
        torch_why=$("$PYTHON" -c 'import torch; print("" if torch.version.cuda else "no torch")' \
            2> /dev/null) || torch_why="no torch"
    fi
    name=$1 csv=$2 script=$3
    shift 3
    run_step "$name" "$csv" "$torch_why" env PYTHONUNBUFFERED=1 "$PYTHON" "$script" "$@"
}

step potrf potrf.csv bench_potrf -n "$POTRF_N" --prec ds --uplo LU --variant auto \
    --niter "$NITER" --openblas --openblas-max "$OPENBLAS_MAX" --gemm-n "$GEMM_N"

step syrk_diag syrk_diag.csv bench_syrk_diag --sizes "$SHAPES" --prec ds --all-rfp \
    --gemm-shape --runs "$RUNS"
step pftrf pftrf.csv bench_pftrf --sizes "$PFTRF_N" --prec ds --all-rfp --runs "$NITER"
step posv posv.csv bench_posv -n "$POSV_N" --niter "$RUNS"
step xposv xposv.csv bench_xposv -n "$XPOSV_N" --niter "$NITER"
step xposv_kappa xposv_kappa.csv bench_xposv --no-rows --kappa-table "$KAPPA_N" --niter "$NITER"
step xposv16 xposv16.csv bench_xposv -n "$XPOSV16_N" --nrhs 16 --niter "$NITER"
# PyTorch's batched Cholesky beside each: the same orders and batch sizing (both default to
# --bytes 2^31 and --small 100; given here so that the two stay alike)
# shellcheck disable=SC2086  # BATCHED_SIZING is a list of options
for p in d s; do
    step "potrf_batched_$p" "potrf_batched_$p.csv" bench_potrf_batched --prec $p -n "$BATCHED_N" \
        --niter "$NITER" --small-niter "$SMALL_NITER" $BATCHED_SIZING
    step_torch "potrf_batched_torch_$p" "potrf_batched_torch_$p.csv" \
        benchmarks/bench_potrf_batched_torch.py --prec $p -n "$BATCHED_N" --niter "$NITER" \
        --small-niter "$SMALL_NITER" $BATCHED_SIZING
done
step wls wls.csv bench_wls --mn "$SHAPES" --niter "$RUNS"
step wls_seed wls_seed.csv bench_wls_seed --m "$SEED_M" --niter "$NITER"
for p in d s; do
    # shellcheck disable=SC2086  # SHIM_SOLVE is a list of options
    step "lapack_shim_$p" "lapack_shim_$p.csv" bench_lapack_shim --prec $p --n "$SHIM_N" \
        $SHIM_SOLVE --runs "$RUNS"
done
# the distributed potrf under mpirun (one rank a GPU; --bind-to none: each rank fills its part
# on all host cores): one rank, the driver's overhead; where there are two GPUs or more, strong
# scaling on all of them (double and single), one traced factorization (the broadcasts against
# the updates), and weak scaling at about 100 GB of matrix a GPU on 1, 2, 4, ... of them (each
# rank's pristine copy in host memory, P GPUs needing about P x 106 GB of it; where the host
# has less, MP_WEAK_SOURCE=gen regenerates each rank's part before each run instead)
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -x "$BENCH_DIR/bench_mp_potrf" ] && command -v mpirun > /dev/null 2>&1; then
    mp_step() {  # mp_step NAME RANKS ARGS...
        mp_name=$1
        LAUNCH="mpirun --oversubscribe --bind-to none -np $2"
        shift 2
        step "$mp_name" "$mp_name.csv" bench_mp_potrf --nb 1024 --niter "$NITER" "$@"
        LAUNCH=
    }
    mp_step mp_one 1 -n "$MP_ONE_N"
    if [ "$ngpu" -ge 2 ]; then
        mp_step mp_all "$ngpu" -n "$MP_ALL_N"
        mp_step mp_all_s "$ngpu" -n "$MP_ALL_S_N" --prec s
        selected mp_timeline && rm -f "$OUT_DIR"/mp_timeline_*.csv
        mp_step mp_timeline "$ngpu" -n "$MP_TIMELINE_N" --single 0 \
            --timeline "$OUT_DIR/mp_timeline"
        if selected mp_timeline && ls "$OUT_DIR"/mp_timeline_*_rank*.csv > /dev/null 2>&1; then
            "$PYTHON" benchmarks/plot_timeline.py "$OUT_DIR"/mp_timeline_*_rank*.csv \
                -o "$OUT_DIR/mp_timeline.png" > /dev/null 2>&1 ||
                echo "report: no mp_timeline.png (plot_timeline.py needs matplotlib)"
        fi
        i=1
        for p in 1 2 4 8; do
            [ "$p" -le "$ngpu" ] || break
            n=$(echo "$MP_WEAK_N" | cut -d, -f$i)
            i=$((i + 1))
            mp_step "mp_weak_$p" "$p" -n "$n" --single "$([ "$p" = 1 ] && echo 1 || echo 0)" \
                --source "$MP_WEAK_SOURCE"
        done
    fi
    # an unchanged ScaLAPACK program (linked without gchol) on every GPU through the drop-in,
    # and the same binary on ScaLAPACK on the host cores at the smallest order
    scal=$(cd build/lib 2> /dev/null && pwd)/libgchol_scalapack.so
    if [ -f "$scal" ] && [ -x "$BENCH_DIR/bench_scalapack_llt" ]; then
        threads=$(($(getconf _NPROCESSORS_ONLN) / (ngpu > 0 ? ngpu : 1)))
        LAUNCH="mpirun --oversubscribe --bind-to none -np $((ngpu > 0 ? ngpu : 1)) -x LD_PRELOAD=$scal -x OPENBLAS_NUM_THREADS=$threads"
        step scalapack_llt_gpu scalapack_llt_gpu.csv bench_scalapack_llt -n "$LLT_N" --nb 1024 \
            --niter "$NITER"
        LAUNCH="mpirun --oversubscribe --bind-to none -np $((ngpu > 0 ? ngpu : 1)) -x OPENBLAS_NUM_THREADS=$threads"
        step scalapack_llt_cpu scalapack_llt_cpu.csv bench_scalapack_llt -n "$LLT_CPU_N" --nb 256 \
            --niter 1
        LAUNCH=
    fi
else
    printf '%-21s %-10s %5s %5s\n' mp_one "no MPI" 0 0 >> "$STEPS"
fi
bench_s=$(($(date +%s) - start))
# the CUDA runtime and the OpenBLAS core, as the benchmarks reported them
rt=$(cat "$LOG_DIR"/*.log 2>/dev/null | sed -n 's/^# device .*CUDA runtime \([0-9]*\).*/\1/p')
rt=$(echo "$rt" | head -n 1)
[ -n "$rt" ] && echo "cuda_runtime: $((rt / 1000)).$((rt % 1000 / 10))" >> "$OUT_DIR/system.txt"
sed -n 's/^# \(OpenBLAS core .* threads\).*/openblas: \1/p' "$LOG_DIR/potrf.log" 2>/dev/null \
    | head -n 1 >> "$OUT_DIR/system.txt"
# the cuSOLVERMp of the distributed potrf's peer, as bench_mp_potrf names it ("# cuSOLVERMp 702")
v=$(cat "$LOG_DIR"/mp_*.log 2>/dev/null | sed -n 's/^# cuSOLVERMp \([0-9][0-9]*\):.*/\1/p' | head -n 1)
[ -n "$v" ] && echo "cusolvermp: $((v / 1000)).$((v % 1000 / 100)).$((v % 100))" >> "$OUT_DIR/system.txt"
# the PyTorch of the batched peer, as its first line names it ("torch 2.x, GPU, ...")
cat "$LOG_DIR"/potrf_batched_torch_*.log 2>/dev/null \
    | sed -n 's/^torch \([^ ,]*\), .*/torch: \1/p' | head -n 1 >> "$OUT_DIR/system.txt"

# --- plots and tables ----------------------------------------------------------------------
post() {  # post NAME ARGS...: report_tables.py ARGS, recorded in STEPS
    name=$1
    shift
    t0=$(date +%s)
    if "$PYTHON" benchmarks/report_tables.py "$@"; then status=ok; else status=failed; failed=1; fi
    printf '%-21s %-10s %5s %5s\n' "$name" "$status" "$(($(date +%s) - t0))" - >> "$STEPS"
}
if command -v "$PYTHON" > /dev/null 2>&1; then
    post plots --plots "$OUT_DIR"
    if [ -n "$DOC" ] && [ "$failed" = 0 ]; then
        post tables --tables --doc "$DOC" "$OUT_DIR"
    else
        [ -n "$DOC" ] && echo "report: a benchmark failed: $DOC left alone (to write it anyway:" \
            "$PYTHON benchmarks/report_tables.py --tables --doc $DOC $OUT_DIR)"
        post tables --tables "$OUT_DIR"
    fi
else
    echo "report: $PYTHON not found: no tables or plots (the CSVs are in $OUT_DIR)"
    failed=1
fi

# --- summary -------------------------------------------------------------------------------
echo
echo "report: $gpu ($slug), results in $OUT_DIR, logs in $LOG_DIR"
printf '%-21s %-10s %5s %5s\n' step status s rows
cat "$STEPS"
echo "benchmarks: $bench_s s; all: $(($(date +%s) - start)) s"
if command -v "$PYTHON" > /dev/null 2>&1; then
    echo
    "$PYTHON" benchmarks/report_tables.py --summary "$OUT_DIR"
fi
if [ "$failed" != 0 ]; then
    echo "report: FAILED (see the steps above)"
    exit 1
fi
exit 0
