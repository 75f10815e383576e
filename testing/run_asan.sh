#!/bin/sh
# run_asan.sh -- what `make test-asan` runs once it has built build/asan/
# (the host code with -fsanitize=address,undefined): the testers of
# testing/testers.list run from build/asan/ through testing/run_tests.sh, so
# the output is make test's (one line per tester, last line "N passed,
# N failed, N skipped"); logs in build/asan/testing/logs/.
#
# The list is testing/testers.list with build/testing/ read as
# build/asan/testing/, keeping the testers whose program build/asan holds:
# the host-side testers, the LAPACK shim's runs, and every GPU tester, which
# without a GPU still runs its argument checks. testing_preload.sh runs on
# build/asan as well, with the ASan runtime preloaded ahead of the shim (ASan
# must be the first library loaded). Left out, and named on the first line:
# testers of other programs (the packaging test, for one, installs build/'s
# libraries).
#
# Any AddressSanitizer, UndefinedBehaviorSanitizer or LeakSanitizer report
# ends the tester with a non-zero status, which run_tests.sh counts as a
# failure. ASAN_OPTIONS and UBSAN_OPTIONS from the environment come after
# these and override them (ASAN_OPTIONS=detect_leaks=0 where LeakSanitizer
# cannot run, e.g. under ptrace; LSAN_OPTIONS=suppressions=FILE for leaks of
# a third-party library).
#
#   sh testing/run_asan.sh [NAME...]     (after make test-asan built build/asan)

cd "$(dirname "$0")/.." || exit 1
asan=build/asan
list=$asan/testers.list
[ -d "$asan/testing" ] || { echo "run_asan.sh: no $asan/testing (make test-asan builds it)"; exit 1; }

# halt_on_error: the first report ends the program with a non-zero status;
# protect_shadow_gap=0: with a GPU, the CUDA driver maps memory in the range
# ASan would otherwise reserve as its shadow gap.
ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:protect_shadow_gap=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS

left_out=""
: > "$list.tmp" || exit 1
while IFS= read -r entry || [ -n "$entry" ]; do
    entry=$(printf '%s\n' "$entry" | sed 's/^[[:space:]]*//')
    case "$entry" in ''|'#'*) continue ;; esac
    name=${entry%%[[:space:]]*}
    case "$entry" in
        *' sh testing/testing_preload.sh'*)
            printf '%s\n' "$entry" |
                sed "s|sh testing/testing_preload.sh|env TEST_BUILD=$asan &|" >> "$list.tmp"
            continue ;;
    esac
    # the first build/testing/ program the command names must be in build/asan
    prog=$(printf '%s\n' "$entry" | grep -o 'build/testing/[^[:space:]"]*' | head -n 1)
    if [ -n "$prog" ] && [ -e "$asan/${prog#build/}" ]; then
        printf '%s\n' "$entry" | sed "s|build/testing/|$asan/testing/|g" >> "$list.tmp"
    else
        left_out="$left_out $name"
    fi
done < testing/testers.list
mv "$list.tmp" "$list" || exit 1

echo "ASan/UBSan/LSan: the testers of testing/testers.list from $asan/${left_out:+ (not in this tree:$left_out)}"
TEST_LIST=$list TEST_LOGDIR=$asan/testing/logs exec sh testing/run_tests.sh "$@"
