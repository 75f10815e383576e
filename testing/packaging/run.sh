#!/bin/sh
# run.sh -- the installed package, as a user gets it: `make install` into a
# temporary prefix, then testing/packaging/example.c built against it
#   - through pkg-config: gchol (shared), gchol-static (the archive), and
#     `pkg-config --static --libs gchol` behind -Wl,-Bstatic -lgchol;
#   - through CMake: find_package(gchol) with gchol::gchol and gchol::gchol_static;
# each checked for what it links (libgchol.so.1 or the archive's code), and
# run: with a GPU it factors a matrix; without one the run counts as skipped
# (example exits 77 after its version check). Then `make uninstall` must
# leave the prefix empty, and a DESTDIR install must land under DESTDIR.
# Prints one line per case and "SUMMARY passed=N failed=N skipped=N".
#
#   sh testing/packaging/run.sh          (run by `make test`)
#   KEEP=1 sh testing/packaging/run.sh   keeps the temporary directory

cd "$(dirname "$0")/../.." || exit 1
root=$PWD
here=$root/testing/packaging
version=$(cat VERSION)
major=${version%%.*}
cc=${CC:-cc}
make=${MAKE:-make}
# run by make test: do not inherit the outer make's flags and jobserver
unset MAKEFLAGS MFLAGS MAKELEVEL

passed=0; failed=0; skipped=0
ok()   { echo "  ok       $*"; passed=$((passed + 1)); }
fail() { echo "  FAILED   $*"; failed=$((failed + 1)); }
skip() { echo "  skipped  $*"; skipped=$((skipped + 1)); }
show() { sed 's/^/           | /' "$1" | tail -n 30; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gchol_packaging.XXXXXX") || exit 1
if [ "${KEEP:-0}" = 1 ]; then echo "  (keeping $tmp)"; else trap 'rm -rf "$tmp"' EXIT; fi
prefix=$tmp/prefix
libdir=$prefix/lib

# --- install ------------------------------------------------------------------
if ! $make -s --no-print-directory install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
    fail "make install PREFIX=$prefix"; show "$tmp/install.log"
    echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
    exit 1
fi
missing=""
for f in include/gchol.h include/gchol_wls.h include/gchol_mixed.h include/gchol_batched.h \
         include/gchol_lapack.h \
         include/gchol_version.h lib/libgchol.a \
         "lib/libgchol.so.$version" "lib/libgchol.so.$major" lib/libgchol.so \
         lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so lib/pkgconfig/gchol.pc \
         lib/pkgconfig/gchol-static.pc lib/cmake/gchol/gcholConfig.cmake \
         lib/cmake/gchol/gcholConfigVersion.cmake; do
    [ -e "$prefix/$f" ] || missing="$missing $f"
done
soname=$(readelf -d "$libdir/libgchol.so.$version" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ -n "$missing" ]; then
    fail "make install: missing$missing"
elif [ "$soname" != "libgchol.so.$major" ]; then
    fail "make install: SONAME of libgchol.so.$version is '$soname', not libgchol.so.$major"
elif ! grep -q "GCHOL_VERSION_STRING \"$version\"" "$prefix/include/gchol_version.h"; then
    fail "make install: gchol_version.h does not say $version"
else
    ok "make install: headers, libraries (SONAME $soname), pkg-config, CMake package"
fi

# run_example WHAT EXE: runs it; 0 passed, 77 (no GPU) skipped
run_example() {
    "$2" > "$tmp/run.log" 2>&1
    rc=$?
    case $rc in
        0) ok "$1: runs: $(tail -n 1 "$tmp/run.log")" ;;
        77) skip "$1: run (no GPU; version check passed: $(head -n 1 "$tmp/run.log"))" ;;
        *) fail "$1: run, exit status $rc"; show "$tmp/run.log" ;;
    esac
}
# links_shared / links_static EXE: libgchol.so.MAJOR is NEEDED / the factorization is in EXE
links_shared() { readelf -d "$1" | grep -q "NEEDED.*\[libgchol\.so\.$major\]"; }
links_static() {
    nm "$1" 2>/dev/null | grep -q ' T gchol_dpotrf_gpu$' &&
        ! readelf -d "$1" | grep -q 'NEEDED.*libgchol\.so'
}

# --- pkg-config ---------------------------------------------------------------------
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    pcv=$(pkg-config --modversion gchol 2>&1)
    cflags=$(pkg-config --cflags gchol 2>&1)
    if [ "$pcv" = "$version" ] && echo " $cflags " | grep -q -- "-I$prefix/include " &&
       echo "$cflags" | grep -q -- '-I/.*include' && [ "$(echo "$cflags" | wc -w)" -ge 2 ]; then
        ok "pkg-config gchol: version $pcv, cflags $cflags"
    else
        fail "pkg-config gchol: version '$pcv' (want $version), cflags '$cflags'"
    fi

    # pkg_build WHAT EXE CHECK FLAGS...: builds example.c with FLAGS, checks with CHECK
    pkg_build() {
        what=$1; exe=$2; check=$3; shift 3
        if ! $cc -std=c11 -O2 -Wall "$here/example.c" -o "$exe" "$@" -lm > "$tmp/build.log" 2>&1; then
            fail "$what: build"; echo "           $cc -std=c11 -O2 -Wall example.c -o $exe $* -lm"
            show "$tmp/build.log"; return 1
        fi
        if ! $check "$exe"; then
            fail "$what: builds, but links the wrong library"
            readelf -d "$exe" | grep NEEDED | sed 's/^/           | /'; return 1
        fi
        ok "$what: builds and links ($check)"
        run_example "$what" "$exe"
    }
    pkg_build "pkg-config gchol (shared)" "$tmp/ex_pc_shared" links_shared \
        $(pkg-config --cflags --libs gchol) -Wl,-rpath,"$libdir"
    pkg_build "pkg-config gchol-static" "$tmp/ex_pc_static" links_static \
        $(pkg-config --cflags --libs gchol-static)
    pkg_build "pkg-config --static gchol, -Wl,-Bstatic -lgchol" "$tmp/ex_pc_bstatic" links_static \
        $(pkg-config --cflags gchol) -Wl,-Bstatic -L"$libdir" -lgchol -Wl,-Bdynamic \
        $(pkg-config --static --libs gchol | sed 's/-lgchol / /')
    unset PKG_CONFIG_PATH
else
    skip "pkg-config: not installed"
fi

# --- CMake ------------------------------------------------------------------------------
if command -v cmake >/dev/null 2>&1; then
    bdir=$tmp/cmake-build
    if cmake -S "$here" -B "$bdir" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
           -DCMAKE_BUILD_TYPE=Release > "$tmp/cmake.log" 2>&1 &&
       cmake --build "$bdir" >> "$tmp/cmake.log" 2>&1; then
        if links_shared "$bdir/example_shared" && links_static "$bdir/example_static"; then
            ok "CMake find_package(gchol $version): gchol::gchol and gchol::gchol_static build and link"
            run_example "CMake gchol::gchol" "$bdir/example_shared"
            run_example "CMake gchol::gchol_static" "$bdir/example_static"
        else
            fail "CMake: the examples link the wrong libraries"
            readelf -d "$bdir/example_shared" "$bdir/example_static" | grep -E 'File|NEEDED' |
                sed 's/^/           | /'
        fi
    else
        fail "CMake find_package(gchol): configure or build"; show "$tmp/cmake.log"
    fi
else
    skip "CMake: not installed"
fi

# --- uninstall, DESTDIR ---------------------------------------------------------------
if $make -s --no-print-directory uninstall PREFIX="$prefix" > "$tmp/uninstall.log" 2>&1 &&
   [ ! -e "$prefix" ]; then
    ok "make uninstall: the prefix is gone"
else
    fail "make uninstall: left behind:"; (cd "$tmp" && find prefix) | sed 's/^/           | /'
    show "$tmp/uninstall.log"
fi
stage=$tmp/stage
if $make -s --no-print-directory install DESTDIR="$stage" PREFIX=/opt/gchol > "$tmp/destdir.log" 2>&1 &&
   [ -f "$stage/opt/gchol/lib/libgchol.so.$version" ] &&
   grep -q '^prefix=/opt/gchol$' "$stage/opt/gchol/lib/pkgconfig/gchol.pc" &&
   $make -s --no-print-directory uninstall DESTDIR="$stage" PREFIX=/opt/gchol >> "$tmp/destdir.log" 2>&1 &&
   [ -z "$(find "$stage" -type f -o -type l)" ]; then
    ok "make install/uninstall DESTDIR=... PREFIX=/opt/gchol: staged, prefix recorded as /opt/gchol"
else
    fail "make install/uninstall with DESTDIR"; show "$tmp/destdir.log"
    [ -d "$stage" ] && (cd "$stage" && find . -type f -o -type l) | sed 's/^/           | /'
fi

echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]
