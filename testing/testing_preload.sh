#!/bin/sh
# testing_preload.sh -- the LAPACK shim under unchanged programs: runs
# build/testing/preload_probe (LAPACKE + OpenBLAS only) with
# LD_PRELOAD=build/lib/libgchol_lapack.so, GCHOL_LAPACK=gpu and verbose routing,
# and checks that DPOSV went through the shim (on the GPU, or with no GPU
# on the CPU after the fallback) with a correct solution; then callers that
# dlsym(RTLD_NEXT) cannot serve (build/testing/shim_probe); then the GPU engine:
# opened only at the first call routed to the GPU, and a missing, refused or
# failing engine (build/testing/fault_engine.so). Every probe must also exit
# with status 0 (a sanitizer's report makes it fail). Prints the SUMMARY line
# of the testers.
cd "$(dirname "$0")/.." || exit 1
# The build tree under test: build/, or $TEST_BUILD (make test-asan: build/asan).
b=${TEST_BUILD:-build}
# A shim built with AddressSanitizer needs the ASan runtime loaded ahead of
# every other library, the preloaded shim included: the runtime then goes
# first in LD_PRELOAD, and the Fortran probe is linked with the sanitizers.
asan_rt=$(ldd "$b/lib/libgchol_lapack.so" 2>/dev/null | awk '/libasan/ { print $3; exit }')
pre=${asan_rt:+$asan_rt:}
fsan=${asan_rt:+-fsanitize=address,undefined}
passed=0; failed=0
if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then want="gpu"; else want="cpu (gpu unavailable)"; fi
for n in 700 3000; do
    out=$(LD_PRELOAD=$pre$PWD/$b/lib/libgchol_lapack.so GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 \
          $b/testing/preload_probe $n 2>&1); rc=$?
    route=$(echo "$out" | grep "gchol LAPACK shim: DPOSV n=$n " | head -n 1)
    result=$(echo "$out" | grep '^info ')
    ok=$(echo "$result" | awk '{ print ($2 == 0 && $4 < 30) ? 1 : 0 }')
    if [ "$rc" -eq 0 ] && [ -n "$route" ] && echo "$route" | grep -q " $want " && [ "$ok" = 1 ]; then
        echo "  ok      LD_PRELOAD, n=$n: $route; $result"; passed=$((passed + 1))
    else
        echo "  FAILED  LD_PRELOAD, n=$n (want '$want', exit status 0; got $rc):"; echo "$out" | sed 's/^/          /'
        failed=$((failed + 1))
    fi
done
# without the shim the same program runs on OpenBLAS alone
out=$($b/testing/preload_probe 700 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^info 0 ' && ! echo "$out" | grep -q 'gchol'; then
    echo "  ok      without LD_PRELOAD: $out"; passed=$((passed + 1))
else
    echo "  FAILED  without LD_PRELOAD (exit status $rc): $out"; failed=$((failed + 1))
fi
# no CPU LAPACK linked (as --as-needed leaves a program that calls LAPACK only
# through the shim), and LAPACK called from a plugin loaded RTLD_LOCAL: the
# shim must find a CPU LAPACK all the same (GCHOL_LAPACK=cpu), and in mode gpu
# run on the GPU or, without one, fall back
# check_said WHAT WANT TEXT COMMAND...: the DPOSV line says WANT, the solve
# is right, and the output says TEXT (empty: anything); check: no TEXT
check_said() {
    what=$1; want_route=$2; text=$3; shift 3
    out=$("$@" 2>&1); rc=$?
    route=$(echo "$out" | grep "gchol LAPACK shim: DPOSV n=" | head -n 1)
    ok=$(echo "$out" | grep '^info ' | awk '{ print ($2 == 0 && $4 < 30) ? 1 : 0 }')
    if [ "$rc" -eq 0 ] && [ -n "$route" ] && echo "$route" | grep -q " $want_route " && [ "$ok" = 1 ] &&
       echo "$out" | grep -qF -- "$text"; then
        echo "  ok      $what: $route; $(echo "$out" | grep '^info ')${text:+; said '$text'}"
        passed=$((passed + 1))
    else
        echo "  FAILED  $what (want '$want_route'${text:+, and '$text' on stderr}, exit status 0; got $rc):"
        echo "$out" | sed 's/^/          /'; failed=$((failed + 1))
    fi
}
check() { what=$1; want_route=$2; shift 2; check_said "$what" "$want_route" "" "$@"; }
check "no LAPACK linked, mode cpu" cpu env GCHOL_LAPACK=cpu GCHOL_LAPACK_VERBOSE=1 $b/testing/shim_probe 400
check "no LAPACK linked, mode gpu" "$want" env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 $b/testing/shim_probe 400
check "LAPACK from a dlopen'd plugin, mode cpu" cpu env GCHOL_LAPACK=cpu GCHOL_LAPACK_VERBOSE=1 \
    $b/testing/shim_probe --plugin $b/testing/shim_plugin.so 300
check "LAPACK from a dlopen'd plugin, LD_PRELOAD, mode cpu" cpu env GCHOL_LAPACK=cpu \
    GCHOL_LAPACK_VERBOSE=1 LD_PRELOAD=$pre$PWD/$b/lib/libgchol_lapack.so \
    $b/testing/shim_probe --plugin $b/testing/shim_plugin.so 300
# The GPU engine (lapack_api/lapack_engine.h). The shim itself links no CUDA
# library, so preloading it costs no CUDA start-up; the engine, and with it
# CUDA, comes in at the first call routed to the GPU (even with no device).
cuda_libs() { # cuda_libs WHAT WANT COMMAND...: the probe's "cuda_libs" line is WANT
    what=$1; want_libs=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && echo "$out" | grep -q "^cuda_libs $want_libs\$" && echo "$out" | grep -q '^info 0 '; then
        echo "  ok      $what: cuda_libs $want_libs"; passed=$((passed + 1))
    else
        echo "  FAILED  $what (want cuda_libs $want_libs, exit status 0; got $rc):"; echo "$out" | sed 's/^/          /'
        failed=$((failed + 1))
    fi
}
if ldd $b/lib/libgchol_lapack.so | grep -q 'libcu'; then
    echo "  FAILED  the shim links a CUDA library:"; ldd $b/lib/libgchol_lapack.so | sed 's/^/          /'
    failed=$((failed + 1))
else
    echo "  ok      the shim links no CUDA library"; passed=$((passed + 1))
fi
cuda_libs "mode cpu: CUDA never loaded" "0 0" env GCHOL_LAPACK=cpu $b/testing/shim_probe 400
cuda_libs "mode gpu: CUDA loaded at the first GPU call" "0 1" env GCHOL_LAPACK=gpu $b/testing/shim_probe 400
engine=$PWD/$b/testing/fault_engine.so
check_said "engine missing, mode gpu" "cpu (gpu unavailable)" "cannot open the GPU engine" \
    env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 \
    GCHOL_LAPACK_GPU_LIB=/nonexistent/libgchol_lapack_gpu.so $b/testing/shim_probe 400
check_said "engine of another version refused" "cpu (gpu unavailable)" "another version of the engine" \
    env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 GCHOL_LAPACK_GPU_LIB=$engine GCHOL_FAULT=version \
    $b/testing/shim_probe 400
check_said "GPU failure before any write: redone on the CPU" "cpu (gpu unavailable)" \
    "injected out of device memory; redone on the CPU" env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 \
    GCHOL_LAPACK_GPU_LIB=$engine GCHOL_FAULT=before $b/testing/shim_probe 400
# a relative LD_PRELOAD path, and the program changes directory before its
# first call: the engine beside the shim is found all the same
out=$(LD_PRELOAD=$pre$b/lib/libgchol_lapack.so PROBE_CHDIR=/ GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 \
      $b/testing/preload_probe 300 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q "DPOSV n=300 info=0 $want " && echo "$out" | grep -q '^info 0 ' &&
   ! echo "$out" | grep -q "cannot open the GPU engine"; then
    echo "  ok      relative LD_PRELOAD, chdir before the call: engine found"; passed=$((passed + 1))
else
    echo "  FAILED  relative LD_PRELOAD, chdir before the call (exit status $rc):"; echo "$out" | sed 's/^/          /'
    failed=$((failed + 1))
fi
# after a write the input is lost: info = GCHOL_ERR_CUDA (-103), path 'E', one stderr line
out=$(env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 GCHOL_LAPACK_GPU_LIB=$engine GCHOL_FAULT=after \
      $b/testing/shim_probe 400 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^info -103 ' && echo "$out" | grep -q 'DPOSV n=400 info=-103 failed ' &&
   echo "$out" | grep -q 'DPOSV failed on the GPU after it had written part of its input arrays'; then
    echo "  ok      GPU failure after a write: info -103, path E, said on stderr"; passed=$((passed + 1))
else
    echo "  FAILED  GPU failure after a write (want info -103, path E, exit status 0; got $rc):"; echo "$out" | sed 's/^/          /'
    failed=$((failed + 1))
fi
# a Fortran caller (gfortran's hidden string lengths), linked with the shim only
skipped=0
if command -v gfortran >/dev/null 2>&1; then
    tmp=$(mktemp -d)
    if gfortran -O1 $fsan testing/fortran_probe.f90 -o "$tmp/fortran_probe" -L$b/lib -lgchol_lapack \
           -Wl,-rpath,"$PWD/$b/lib" 2> "$tmp/build.log"; then
        check "Fortran caller, mode cpu" cpu env GCHOL_LAPACK=cpu GCHOL_LAPACK_VERBOSE=1 \
            "$tmp/fortran_probe" 300
        check "Fortran caller, mode gpu" "$want" env GCHOL_LAPACK=gpu GCHOL_LAPACK_VERBOSE=1 \
            "$tmp/fortran_probe" 300
    else
        echo "  FAILED  Fortran caller: gfortran could not build it"; sed 's/^/          /' "$tmp/build.log"
        failed=$((failed + 1))
    fi
    rm -rf "$tmp"
else
    echo "  skipped Fortran caller (no gfortran)"; skipped=1
fi
echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]
