#!/usr/bin/env bash
# Runs test suites that speak TAP and ends with one line "N passed, N failed,
# N skipped". Usage: run-tests.sh check|unit|unit-diff|ct|cross|valgrind|fuzz|sanitize|all
# (check: make check's fast tier; all: make test).
# Compute-bound suites (unit, differential, constant-time, emulated) run two
# at a time; suites that start servers run one after another. A suite that
# exits non-zero without reporting a failure counts one failure. Logs go to
# $BUILD/test-logs/, and each suite's wall time is shown.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
QEMU=${QEMU:-}
JOBS=${JOBS:-2}
export VECTORS=${VECTORS:-$(pwd)/tests/vectors}
export CS_BUILD=$(cd "$BUILD" && pwd)
export CS_ROOT=$(pwd)
logs=$BUILD/test-logs
mkdir -p "$logs"
passed=0 failed=0 skipped=0
names=() # suites in report order

# exec_suite NAME TIMEOUT CMD...: runs CMD into NAME's log, records status and time.
exec_suite() {
    local name=$1 limit=$2; shift 2
    local log="$logs/$name.log" t0=$SECONDS
    mkdir -p "$(dirname "$log")"
    timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
    echo "$? $((SECONDS - t0))" >"$log.status"
}

# queue NAME TIMEOUT CMD...: runs in the background, at most JOBS at once.
queue() {
    names+=("$1")
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
        wait -n
    done
    exec_suite "$@" &
}

# serial NAME TIMEOUT CMD...: waits for queued suites, then runs this one alone.
serial() {
    wait
    names+=("$1")
    exec_suite "$@"
}

# report NAME: counts a finished suite's TAP lines.
report() {
    local name=$1 log="$logs/$1.log" rc secs p f s
    read -r rc secs <"$log.status"
    p=$(grep -Ec '^ok [0-9]+' "$log" | tr -d ' ')
    s=$(grep -Eic '^ok [0-9]+.*# skip' "$log" | tr -d ' ')
    f=$(grep -Ec '^not ok [0-9]+' "$log" | tr -d ' ')
    p=$((p - s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    printf '%-40s %4d passed %4d failed %4d skipped %5ss' "$name" "$p" "$f" "$s" "$secs"
    if [ "$f" -ne 0 ]; then
        printf '  FAIL (see %s)\n' "$log"
        grep -E '^not ok' "$log" | head -20 | sed 's/^/    /'
    else
        printf '\n'
    fi
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

unit_suites() {
    local t
    for t in "$BUILD"/tests/kernel_*; do
        [ -x "$t" ] || continue
        queue "unit/$(basename "$t")" 1800 $QEMU "$t"
    done
}

diff_suites() {
    local t
    # Native-only C tests of the policy, controls and stats (mk/policy.mk).
    for t in "$BUILD"/tests/policy_* "$BUILD"/tests/stats_*; do
        [ -x "$t" ] || continue
        queue "unit/$(basename "$t")" 600 "$t"
    done
    for t in "$BUILD"/tests/diff_*; do
        [ -x "$t" ] || continue
        queue "diff/$(basename "$t")" 1800 $QEMU "$t" ${CS_DIFF_COUNT:-}
    done
}

# Constant-time checks: ct_* programs under memcheck, secrets marked undefined.
ct_suites() {
    local t
    for t in "$BUILD"/tests/ct_*; do
        [ -x "$t" ] || continue
        queue "ct/$(basename "$t")" 1800 \
            valgrind -q --error-exitcode=99 --track-origins=yes "$t"
    done
}

# Kernel tests cross-built and run under qemu (make CROSS=... test-unit).
cross_suites() {
    local target cc q t
    for target in s390x sparc32; do
        case $target in
            s390x) cc=s390x-linux-gnu-gcc q=qemu-s390x ;;
            sparc32) cc=sparc64-linux-gnu-gcc q=qemu-sparc32plus ;;
        esac
        if ! command -v "$cc" >/dev/null || ! command -v "$q" >/dev/null; then
            echo "cross/$target: $cc or $q not installed, skipped"
            continue
        fi
        serial "cross/$target/build" 1800 make -s CROSS=$target all
        for t in build/cross-$target/tests/kernel_*; do
            [ -x "$t" ] || continue
            queue "cross/$target/$(basename "$t")" 1800 $q "$t"
        done
    done
}

# Memcheck over the library code on real inputs: the differential test (few
# random cases) and the kernel vector tests (`make valgrind`).
valgrind_suites() {
    local t vg="valgrind -q --error-exitcode=99"
    for t in "$BUILD"/tests/diff_modexp "$BUILD"/tests/kernel_bn "$BUILD"/tests/kernel_mldsa; do
        [ -x "$t" ] || continue
        queue "valgrind/$(basename "$t")" 3600 $vg "$t" ${CS_DIFF_COUNT:-}
    done
}

# Each fuzz target (mk/sanitize.mk) for a few seconds on the tree's corpus.
fuzz_suites() {
    local t
    for t in "${FUZZ_BUILD:-build/fuzz}"/fuzz_*; do
        [ -x "$t" ] || continue
        queue "fuzz/$(basename "$t")" 300 tests/fuzz/smoke.sh "$t"
    done
    queue fuzz/fuzz_pcap 300 python3 tests/fuzz/fuzz_pcap.py "${FUZZ_SMOKE_SECONDS:-8}"
}

# Sanitizers (mk/sanitize.mk): the differential and kernel tests under ASan
# and UBSan on a small case count (CS_ASAN_COUNT), vectors from the tree; the
# threaded first-call driver under ThreadSanitizer.
sanitize_suites() {
    local t
    for t in "${FUZZ_BUILD:-build/fuzz}"/tests/*; do
        [ -x "$t" ] || continue
        queue "asan/$(basename "$t")" 900 "$t" ${CS_ASAN_COUNT:-300}
    done
    [ -x "${TSAN_BUILD:-build/tsan}/tests/tsan_first_call" ] &&
        queue "tsan/first_call" 600 tests/tsan/run.sh "${TSAN_BUILD:-build/tsan}"
}

# make check's quick bats files: the layout's rules and the policy's.
check_bats_suites() {
    local f
    for f in tests/bats/layout.bats tests/bats/policy.bats tests/bats/policy_args.bats; do
        queue "${f%.bats}" 300 bats --tap "$f"
    done
}

bats_suites() {
    local f dir
    for dir in tests/bats tests/ssh tests/versions; do
        for f in "$dir"/*.bats; do
            [ -f "$f" ] || continue
            serial "$dir/$(basename "$f" .bats)" 1800 bats --tap "$f"
        done
    done
}

# Emulated end-to-end suites (tests/cross/*.bats). Under `make test` those
# needing an hour-long build (the SPARC v7 OpenSSL) skip unless it is cached;
# `make test-cross` builds it (CS_CROSS_FULL=1).
cross_e2e_suites() {
    local f
    for f in tests/cross/*.bats; do
        [ -f "$f" ] || continue
        serial "cross-e2e/$(basename "$f" .bats)" 7200 bats --tap "$f"
    done
}

case ${1:-all} in
    check) diff_suites; unit_suites; check_bats_suites ;;
    unit) unit_suites ;;
    cross) cross_suites; cross_e2e_suites ;;
    ct) ct_suites ;;
    unit-diff) unit_suites; diff_suites ;;
    valgrind) valgrind_suites ;;
    fuzz) fuzz_suites ;;
    sanitize) sanitize_suites ;;
    all) diff_suites; unit_suites; ct_suites; fuzz_suites; sanitize_suites; cross_suites; cross_e2e_suites; bats_suites ;;
    *) echo "usage: $0 check|unit|unit-diff|ct|cross|valgrind|fuzz|sanitize|all" >&2; exit 2 ;;
esac
wait
for n in "${names[@]}"; do
    report "$n"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
