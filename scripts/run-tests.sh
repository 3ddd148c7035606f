#!/usr/bin/env bash
# Runs test suites that speak TAP and ends with one line "N passed, N failed".
# Usage: run-tests.sh unit|unit-diff|ct|cross|all
# A suite that exits non-zero without reporting a failure counts one failure.
# Logs go to $BUILD/test-logs/.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-}
export VECTORS=${VECTORS:-$(cd .. && pwd)/shared/vectors}
export CS_BUILD=$(cd "$BUILD" && pwd)
export CS_ROOT=$(pwd)
logs=$BUILD/test-logs
mkdir -p "$logs"
passed=0 failed=0 skipped=0

# run_suite NAME TIMEOUT CMD...: runs CMD, counts its TAP lines.
run_suite() {
    local name=$1 limit=$2; shift 2
    local log="$logs/$name.log" rc
    mkdir -p "$(dirname "$log")"
    timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
    rc=$?
    local p f s
    p=$(grep -Ec '^ok [0-9]+' "$log" | tr -d ' ')
    s=$(grep -Eic '^ok [0-9]+.*# skip' "$log" | tr -d ' ')
    f=$(grep -Ec '^not ok [0-9]+' "$log" | tr -d ' ')
    p=$((p - s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    if [ "$f" -ne 0 ]; then
        printf '%-40s %4d passed %4d failed %4d skipped  FAIL (see %s)\n' "$name" "$p" "$f" "$s" "$log"
        grep -E '^not ok' "$log" | head -20 | sed 's/^/    /'
    else
        printf '%-40s %4d passed %4d failed %4d skipped\n' "$name" "$p" "$f" "$s"
    fi
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

unit_suites() {
    local t
    for t in "$BUILD"/tests/kernel_*; do
        [ -x "$t" ] || continue
        run_suite "unit/$(basename "$t")" 1800 $QEMU "$t"
    done
}

diff_suites() {
    local t
    for t in "$BUILD"/tests/diff_*; do
        [ -x "$t" ] || continue
        run_suite "diff/$(basename "$t")" 1800 $QEMU "$t" ${CS_DIFF_COUNT:-}
    done
}

# Constant-time checks: ct_* programs under memcheck, secrets marked undefined.
ct_suites() {
    local t
    for t in "$BUILD"/tests/ct_*; do
        [ -x "$t" ] || continue
        run_suite "ct/$(basename "$t")" 1800 \
            valgrind -q --error-exitcode=99 --track-origins=yes "$t"
    done
}

bats_suites() {
    local f dir
    for dir in tests/bats tests/ssh; do
        for f in "$dir"/*.bats; do
            [ -f "$f" ] || continue
            run_suite "$dir/$(basename "$f" .bats)" 1800 bats --tap "$f"
        done
    done
}

cross_suites() {
    local target cc
    for target in s390x sparc32; do
        case $target in
            s390x) cc=s390x-linux-gnu-gcc ;;
            sparc32) cc=sparc64-linux-gnu-gcc ;;
        esac
        if ! command -v "$cc" >/dev/null; then
            echo "cross/$target: $cc not installed, skipped"
            continue
        fi
        run_suite "cross/$target/build" 1800 make -s CROSS=$target all
        for t in build/cross-$target/tests/kernel_*; do
            [ -x "$t" ] || continue
            local q
            case $target in s390x) q=qemu-s390x ;; sparc32) q=qemu-sparc32plus ;; esac
            run_suite "cross/$target/$(basename "$t")" 1800 $q "$t"
        done
    done
}

case ${1:-all} in
    unit) unit_suites ;;
    cross) cross_suites ;;
    ct) ct_suites ;;
    unit-diff) unit_suites; diff_suites ;;
    all) unit_suites; diff_suites; ct_suites; cross_suites; bats_suites ;;
    *) echo "usage: $0 unit|unit-diff|ct|cross|all" >&2; exit 2 ;;
esac
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
