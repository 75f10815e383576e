#!/bin/sh
# gpu_ranks.sh PREC [ARGS...] -- testing_mp_PRECpotrf --gpu on two ranks
# under mpirun (sharing this machine's GPU, or one each), for the testers'
# list: `make sanitize` runs it under each compute-sanitizer tool, which
# follows mpirun to its ranks. Without MPI or the tester it prints a skipped
# SUMMARY.
cd "$(dirname "$0")/../.." || exit 1
prec=${1:-d}
[ $# -gt 0 ] && shift
bin=build/testing/testing_mp_${prec}potrf
if [ ! -x "$bin" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "MPI or $bin not found: skipped"
    echo "SUMMARY passed=0 failed=0 skipped=1"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun --oversubscribe -np 2 "$bin" --gpu "$@"
