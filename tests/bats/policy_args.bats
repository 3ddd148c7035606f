#!/usr/bin/env bats
# Bad command-line arguments: every one gives status 2 and one line naming
# what is wrong, before any work starts (no wrapped numbers, no run of
# 4 billion iterations, no silently ignored option). A second or two.

load "helpers/common"

setup() {
    cs_env
    cs_require
    cd "$BATS_TEST_TMPDIR"
}

# refuses ARGS...: cryptoshim ARGS exits 2 quickly with an error on stderr.
refuses() {
    run timeout 20 "$CLI" "$@"
    [ "$status" -eq 2 ] || { echo "status $status for: $*"; return 1; }
    [ -n "$output" ]
}

@test "bench: counts and parameter sets must be plain numbers in range" {
    for n in -1 0 1e3 12abc 99999999999 18446744073709551617; do
        refuses bench mldsa -n "$n"
    done
    for p in 66 -44 44x 4294967340; do
        refuses bench mldsa -p "$p"
    done
    refuses bench bn -x
    refuses bench nosuch
}

@test "selftest, stats, run and unknown commands refuse stray arguments" {
    refuses selftest -x
    refuses stats
    refuses stats a b
    refuses run
    refuses nosuchcommand
}
