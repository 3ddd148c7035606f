# Shared by the emulated end-to-end suites (tests/cross/*.bats): the scratch
# directory and the record of what went wrong before the tests, and the
# kernel calls counted in a stats file written by a big-endian guest.

# cross_setup_file: for setup_file(): exports ROOT (the tree), TMPD (a
# scratch directory) and PROBLEM (an empty file; what goes wrong before the
# tests is appended to it, and each test then fails showing it).
cross_setup_file() {
    ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
    TMPD=$(mktemp -d)
    PROBLEM=$TMPD/problem
    export ROOT TMPD PROBLEM
    : >"$PROBLEM"
}

# cross_step WHAT LINES CMD...: runs CMD into $TMPD/WHAT.log; when it fails,
# notes "WHAT failed:" and the log's last LINES lines in PROBLEM.
cross_step() {
    local what=$1 lines=$2 log
    shift 2
    log=$TMPD/${what// /_}.log
    "$@" >"$log" 2>&1 || { echo "$what failed:"; tail -n "$lines" "$log"; } >>"$PROBLEM"
}

teardown_file() {
    rm -rf "$TMPD"
}

# cross_setup QEMU: for setup(): fails with what went wrong before the
# tests, skips without QEMU.
cross_setup() {
    if [ -s "$PROBLEM" ]; then
        cat "$PROBLEM"
        return 1
    fi
    command -v "$1" >/dev/null || skip "$1 not installed"
}

# crt KERNEL BITS: RSA CRT halves of BITS bits served by KERNEL, counted
# singly (mod_exp_consttime, two per signature) or paired (one
# mod_exp_consttime_x2 per signature, since BN_mod_exp_mont_consttime_x2 is
# interposed): in halves.
crt() {
    echo $(($(calls "$1" mod_exp_consttime "$2") + 2 * $(calls "$1" mod_exp_consttime_x2 "$2")))
}

# calls KERNEL OP BITS: calls counted in $STATS (a big-endian file).
calls() {
    "$ROOT/scripts/oldhw/stats.py" "$STATS" |
        awk -F'\t' -v k="$1" -v o="$2" -v b="$3" '$2 == k && $1 == o && $3 == b { n += $4 } END { print n + 0 }'
}
