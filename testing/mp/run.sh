#!/bin/sh
# run.sh -- the distributed layer's testers under mpirun: testing_mp_dpotrf
# and testing_mp_spotrf on 1 to 4 ranks with the CPU local operations (the
# drivers' algorithm and communication), and, with a GPU, on 1, 2 and 4 ranks
# sharing it (--gpu). Prints a line per run and, last, one
# "SUMMARY passed=P failed=F skipped=S" over all runs. Without MPI (mpicc,
# mpirun) the testers are not built and it reports one skipped.
cd "$(dirname "$0")/../.." || exit 1
b=build/testing
if [ ! -x $b/testing_mp_dpotrf ] || [ ! -x $b/testing_mp_spotrf ] ||
   ! command -v mpirun >/dev/null 2>&1; then
    echo "MPI not found (mpicc, mpirun): skipped"
    echo "SUMMARY passed=0 failed=0 skipped=1"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
logdir=${TEST_LOGDIR:-build/testing/logs}/mp
mkdir -p "$logdir" || exit 1
pass=0 fail=0 skip=0
run() { # label np command...
    label=$1 np=$2
    shift 2
    log="$logdir/$label.log"
    mpirun --oversubscribe -np "$np" "$@" > "$log" 2>&1
    rc=$?
    line=$(grep '^SUMMARY' "$log" | tail -1)
    p=$(echo "$line" | sed -n 's/.*passed=\([0-9]*\).*/\1/p')
    f=$(echo "$line" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
    s=$(echo "$line" | sed -n 's/.*skipped=\([0-9]*\).*/\1/p')
    if [ -z "$p" ] || [ -z "$f" ] || [ -z "$s" ]; then
        p=0 f=1 s=0
        echo "  $label: no summary (exit $rc); the log ends:"
        tail -5 "$log" | sed 's/^/      | /'
    elif [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
        [ "$f" -gt 0 ] || f=1
        grep '^  FAILED' "$log" | head -5 | sed 's/^/      | /'
    fi
    printf '  %-28s %6s %6s %6s\n' "$label" "$p" "$f" "$s"
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}
printf '  %-28s %6s %6s %6s\n' run passed failed skipped
for prec in d s; do
    for np in 1 2 3 4; do
        run "${prec}potrf_cpu_np$np" $np $b/testing_mp_${prec}potrf
    done
done
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    for prec in d s; do
        for np in 1 2 4; do
            run "${prec}potrf_gpu_np$np" $np $b/testing_mp_${prec}potrf --gpu
        done
    done
fi
echo "SUMMARY passed=$pass failed=$fail skipped=$skip"
