#!/bin/sh
# run.sh -- the distributed layer's testers under mpirun: testing_mp_dpotrf
# and testing_mp_spotrf on 1 to 4 ranks with the CPU local operations (the
# drivers' algorithm and communication), and, with a GPU, on 1, 2 and 4 ranks
# sharing it (--gpu); the ScaLAPACK drop-in against ScaLAPACK's own
# p?potrf_ (testing_scalapack_?dropin, 1 to 4 ranks); and ScaLAPACK's own
# Cholesky testers xdllt and xsllt (Debian's scalapack-mpi-test) on 4 ranks
# with the drop-in preloaded, both triangles (found in Debian's place, or in
# SCALAPACK_TESTERS_DIR), counting from GCHOL_SCALAPACK_VERBOSE that every
# call ran on the GPUs (with a GPU) or by ScaLAPACK (without). Prints a line
# per run and,
# last, one "SUMMARY passed=P failed=F skipped=S" over all runs. Without MPI
# (mpicc, mpirun) the testers are not built and it reports one skipped.
#
# Their condition-estimation and refinement part (PDPOCON, PDPORFS) stops
# now and then under Debian's OpenMPI without the drop-in too, so the input
# leaves it out; a run that still ends without its summary is run again,
# three times at most (the line names the attempt), a failed check never.
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
gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    gpu=1
    for prec in d s; do
        for np in 1 2 4; do
            run "${prec}potrf_gpu_np$np" $np $b/testing_mp_${prec}potrf --gpu
        done
    done
fi
for prec in d s; do
    for np in 1 2 3 4; do
        run "${prec}dropin_np$np" $np $b/testing_scalapack_${prec}dropin
    done
done

# ScaLAPACK's testers through the drop-in: small sizes, grids 1x1, 2x2, 1x4
xdir=""
for d in ${SCALAPACK_TESTERS_DIR:-} /usr/lib/*/scalapack/openmpi-tests; do
    [ -x "$d/xdllt" ] && xdir=$d && break
done
lltrun() { # label uplo tester
    label=$1 uplo=$2 prog=$3
    wd="$logdir/$label.d"
    mkdir -p "$wd"
    cat > "$wd/LLT.dat" <<EOT
'ScaLAPACK, LLt factorization input file'
'MPI machine'
'LLT.out'               output file name (if any)
6                       device out
'$uplo'                 define Lower or Upper
3                       number of problems sizes
10 31 64                values of N
2                       number of NB's
3 8                     values of NB
2                       number of NRHS's
1 3                     values of NRHS
1                       number of NBRHS's
2                       values of NBRHS
3                       number of process grids (ordered pairs P & Q)
1 2 1                   values of P
1 2 4                   values of Q
3.0                     threshold
F                       (T or F) Test Cond. Est. and Iter. Ref. Routines
EOT
    lib=$(cd build/lib && pwd)/libgchol_scalapack.so
    log="$logdir/$label.log"
    for attempt in 1 2 3; do
        (cd "$wd" && timeout 120 mpirun --oversubscribe -np 4 -x LD_PRELOAD="$lib" \
            -x GCHOL_SCALAPACK_VERBOSE=1 "$prog") > "$log" 2>&1
        grep -q 'END OF TESTS' "$log" && break
    done
    p=$(sed -n 's/^ *\([0-9]*\) tests completed and passed.*/\1/p' "$log" | head -1)
    f=$(sed -n 's/^ *\([0-9]*\) tests completed and failed.*/\1/p' "$log" | head -1)
    s=$(sed -n 's/^ *\([0-9]*\) tests skipped.*/\1/p' "$log" | head -1)
    if [ -z "$p" ] || [ -z "$f" ]; then
        p=0 f=1 s=0
        echo "  $label: no summary after $attempt attempts; the log ends:"
        tail -5 "$log" | sed 's/^/      | /'
    fi
    # where the drop-in ran them (rank 0's lines): with a GPU every call on
    # the GPUs, without one every call by ScaLAPACK
    on=$(grep -c '^gchol_scalapack: .* on the GPUs$' "$log")
    by=$(grep -c '^gchol_scalapack: .* by ScaLAPACK$' "$log")
    where="calls on the GPUs $on, by ScaLAPACK $by"
    if [ "$p" -gt 0 ] && { [ $((on + by)) -eq 0 ] ||
        { [ "$gpu" -eq 1 ] && [ "$by" -ne 0 ]; } || { [ "$gpu" -eq 0 ] && [ "$on" -ne 0 ]; }; }; then
        f=$((f + 1))
        where="$where: FAILED (want every call $([ "$gpu" -eq 1 ] && echo on the GPUs || echo by ScaLAPACK))"
    fi
    printf '  %-28s %6s %6s %6s  %s\n' "$label (attempt $attempt)" "$p" "$f" "${s:-0}" "$where"
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + ${s:-0}))
}
if [ -n "$xdir" ]; then
    for uplo in L U; do
        lltrun "xdllt_$uplo" $uplo "$xdir/xdllt"
        lltrun "xsllt_$uplo" $uplo "$xdir/xsllt"
    done
else
    echo "  ScaLAPACK's testers (xdllt, xsllt; Debian scalapack-mpi-test) not found: skipped"
    skip=$((skip + 1))
fi
echo "SUMMARY passed=$pass failed=$fail skipped=$skip"
