#!/bin/sh
# check_deps.sh -- checks what building and testing gchol needs:
#   - the CUDA toolkit (>= 12; tested with 13.0): nvcc, cuBLAS and cuSOLVER
#     headers and libraries, found like the Makefile does ($CUDA_HOME, else
#     the directory of the nvcc on PATH, else /usr/local/cuda);
#   - a C compiler ($CC, else cc) and make;
#   - lapacke.h, liblapacke and libopenblas (Debian: liblapacke-dev libopenblas-dev);
#   - optional: LAPACK's test programs xlintstd & co. (Debian: liblapack-test),
#     which testing/lapack_testers/run.sh runs under the LAPACK shim; without
#     them its entries report skipped, and the exit status does not change;
#   - optional: MPI and ScaLAPACK with its testers (Debian: openmpi-bin
#     libopenmpi-dev libscalapack-openmpi-dev scalapack-mpi-test), for the
#     distributed layer libgchol_mp, the ScaLAPACK drop-in and their tests
#     under mpirun; without them those are not built and report skipped.
#
#   sh tools/check_deps.sh             check only
#   sh tools/check_deps.sh --install   also apt-get install missing Debian
#                                      packages (as root, or through sudo -n)
#   --quiet                            print only what is missing and the
#                                      last line (what `make test` uses)
#
# Exit status: 0 when everything required is present, 1 when something is still
# missing (the message says what and how to get it), 2 on a usage error.

install=0
quiet=0
for arg in "$@"; do
    case "$arg" in
        --install) install=1 ;;
        --quiet) quiet=1 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: sh tools/check_deps.sh [--install] [--quiet]" >&2; exit 2 ;;
    esac
done

missing_pkgs=""   # Debian packages to install
optional_pkgs=""  # the same, optional ones (installed apart: their failure is no error)
cuda_ok=1
ok()   { [ "$quiet" -eq 1 ] || echo "  ok       $*"; }
miss() { echo "  MISSING  $*"; }
need() { case " $missing_pkgs " in *" $1 "*) ;; *) missing_pkgs="${missing_pkgs:+$missing_pkgs }$1" ;; esac; }

[ "$quiet" -eq 1 ] || echo "gchol: checking build and test dependencies"

# --- CUDA toolkit -----------------------------------------------------------
if [ -n "${CUDA_HOME:-}" ]; then
    cuda=$CUDA_HOME
elif nvcc_path=$(command -v nvcc 2>/dev/null); then
    cuda=$(dirname "$(dirname "$nvcc_path")")
else
    cuda=/usr/local/cuda
fi
if [ -x "$cuda/bin/nvcc" ]; then
    ver=$("$cuda/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1.\2/p')
    if [ -n "$ver" ] && [ "${ver%%.*}" -ge 12 ]; then
        ok "nvcc $ver ($cuda/bin/nvcc)"
    else
        miss "CUDA >= 12 (found nvcc ${ver:-of unknown version} in $cuda)"
        cuda_ok=0
    fi
    for f in include/cuda_runtime_api.h include/cublas_v2.h include/cusolverDn.h \
             lib64/libcudart.so lib64/libcublas.so lib64/libcusolver.so; do
        if [ -e "$cuda/$f" ]; then ok "$cuda/$f"; else miss "$cuda/$f"; cuda_ok=0; fi
    done
else
    miss "nvcc (CUDA toolkit) -- looked in $cuda/bin"
    cuda_ok=0
fi

# --- C compiler and make ----------------------------------------------------
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1; then
    ok "C compiler: $cc"
elif [ -z "${CC:-}" ] && command -v gcc >/dev/null 2>&1; then
    cc=gcc
    ok "C compiler: gcc"
else
    miss "C compiler ($cc)"
    need gcc
    cc=""
fi
if command -v make >/dev/null 2>&1; then ok "make"; else miss "make"; need make; fi

# --- LAPACKE + OpenBLAS: compile and link a small program --------------------
tmp=$(mktemp -d 2>/dev/null || echo "/tmp/gchol_deps.$$")
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
check_lapack() {
    [ -n "$cc" ] || return 2
    cat > "$tmp/t.c" <<'EOF'
#include <cblas.h>
#include <lapacke.h>
int main(void)
{
    double a = 4.0;
    const char *core = openblas_get_corename();  /* only OpenBLAS has it */
    return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 1, &a, 1) != 0 || core == 0;
}
EOF
    "$cc" -c "$tmp/t.c" -o "$tmp/t.o" >/dev/null 2>&1 || return 3
    "$cc" "$tmp/t.o" -o "$tmp/t" -llapacke -lopenblas -lm -lpthread >/dev/null 2>&1 || return 4
    return 0
}
report_lapack() {
    case $1 in
        0) ok "lapacke.h, cblas.h (OpenBLAS), -llapacke -lopenblas" ;;
        2) miss "lapacke/openblas: not checked without a C compiler"; need libopenblas-dev; need liblapacke-dev ;;
        3) miss "lapacke.h or OpenBLAS's cblas.h"; need libopenblas-dev; need liblapacke-dev ;;
        4) miss "liblapacke or libopenblas (link failed)"; need libopenblas-dev; need liblapacke-dev ;;
    esac
}
check_lapack; lapack_rc=$?
report_lapack $lapack_rc

# --- optional: LAPACK's test programs (testing/lapack_testers/run.sh) ------------
lapack_testers=""
find_lapack_testers() {
    lapack_testers=""
    for d in /usr/lib/*/lapack /usr/lib64/lapack /usr/lib/lapack; do
        for x in xlintstd xlintsts xlintstrfd xlintstrfs xlintstds; do
            [ -x "$d/$x" ] || continue 2
        done
        lapack_testers=$d
        return 0
    done
    return 1
}
if find_lapack_testers; then
    ok "LAPACK's test programs (xlintstd & co.) in $lapack_testers"
else
    optional_pkgs=liblapack-test
fi

# --- optional: MPI and ScaLAPACK (libgchol_mp, testing/mp/run.sh) ---------------
mpi_pkgs="openmpi-bin libopenmpi-dev libscalapack-openmpi-dev scalapack-mpi-test"
have_mpi() {
    command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 &&
        ls /usr/lib/*/libscalapack-openmpi.so >/dev/null 2>&1
}
had_mpi=0
if have_mpi; then
    had_mpi=1
    ok "MPI (mpicc, mpirun) and ScaLAPACK (libscalapack-openmpi)"
else
    optional_pkgs="${optional_pkgs:+$optional_pkgs }$mpi_pkgs"
fi

# --- install what Debian can provide ------------------------------------------
sudo=none
apt_updated=0
if [ "$install" -eq 1 ] && command -v apt-get >/dev/null 2>&1 &&
   [ -n "$missing_pkgs$optional_pkgs" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    fi
fi
apt_update() {
    [ "$apt_updated" -eq 1 ] && return 0
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && apt_updated=1
}
if [ -n "$missing_pkgs" ]; then
    cmd="apt-get install -y --no-install-recommends $missing_pkgs"
    if [ "$install" -eq 1 ] && command -v apt-get >/dev/null 2>&1; then
        if [ "$sudo" != none ]; then
            echo "installing: $missing_pkgs"
            if apt_update &&
               $sudo env DEBIAN_FRONTEND=noninteractive $cmd; then
                missing_pkgs=""
                if [ -z "$cc" ]; then
                    cc=${CC:-cc}
                    command -v "$cc" >/dev/null 2>&1 || cc=gcc
                fi
                check_lapack; lapack_rc=$?
                if [ "$lapack_rc" -ne 0 ]; then report_lapack $lapack_rc; fi
                command -v make >/dev/null 2>&1 || { miss "make"; need make; }
            else
                echo "apt-get failed"
            fi
        else
            echo "not root and sudo needs a password: cannot install"
        fi
    fi
    if [ -n "$missing_pkgs" ]; then
        if command -v apt-get >/dev/null 2>&1; then
            s=""; [ "$(id -u)" -eq 0 ] || s="sudo "
            echo "run:  ${s}apt-get update && ${s}$cmd"
        else
            echo "install with your package manager: a C compiler, make, and the development"
            echo "files of LAPACKE and OpenBLAS (lapacke.h, cblas.h, liblapacke, libopenblas)"
        fi
    fi
fi

if [ -n "$optional_pkgs" ]; then
    why="not installed"
    had_testers=$lapack_testers
    if [ "$install" -eq 1 ] && command -v apt-get >/dev/null 2>&1 && [ "$sudo" != none ]; then
        echo "installing (optional): $optional_pkgs"
        apt_update && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y \
            --no-install-recommends $optional_pkgs
        why="could not be installed"
    fi
    s=""; [ "$(id -u)" -eq 0 ] || s="sudo "
    if [ -z "$had_testers" ]; then
        if find_lapack_testers; then
            ok "LAPACK's test programs (xlintstd & co.) in $lapack_testers"
        else
            echo "  optional LAPACK's test programs (xlintstd & co.) $why: make test reports them"
            echo "           skipped; Debian: ${s}apt-get install liblapack-test"
        fi
    fi
    if [ "$had_mpi" -eq 1 ]; then
        :
    elif have_mpi; then
        ok "MPI (mpicc, mpirun) and ScaLAPACK (libscalapack-openmpi)"
    else
        echo "  optional MPI and ScaLAPACK $why: libgchol_mp is not built and its tests report"
        echo "           skipped; Debian: ${s}apt-get install $mpi_pkgs"
    fi
fi

if [ "$cuda_ok" -eq 0 ]; then
    echo "The CUDA toolkit (>= 12, tested with 13.0: nvcc, cuBLAS, cuSOLVER) is required and"
    echo "cannot be installed by this script. Install it from NVIDIA, then either put its"
    echo "bin/ on PATH or point CUDA_HOME at it, e.g.:"
    echo "    export CUDA_HOME=/usr/local/cuda-13.0    (or: make CUDA_HOME=/usr/local/cuda-13.0 ...)"
fi

if [ "$cuda_ok" -eq 1 ] && [ -z "$missing_pkgs" ]; then
    echo "gchol: all dependencies present"
    exit 0
fi
echo "gchol: dependencies missing (see above)"
exit 1
