#!/usr/bin/env bats
# Two libcryptos in one process: the system 3.x this program links, and
# Debian 11's 1.1.1 opened later with dlopen(RTLD_LOCAL) (`make openssl11`).
# Expected: both compute the same a^e mod m as without the shim, each call
# served by the forced kernel (one per library), the 3.x route recorded.
# A second.

load "helpers/common"

setup() {
    cs_env
    cs_require
    need_tree L11 11 root/usr/lib/x86_64-linux-gnu/libcrypto.so.1.1
    PROG=$BATS_TEST_TMPDIR/two
    cc -O2 -o "$PROG" "$BATS_TEST_DIRNAME/helpers/two_libcryptos.c" -lcrypto -ldl
    STATS=$BATS_TEST_TMPDIR/t.stats
}

@test "3.x linked and 1.1.1 opened RTLD_LOCAL: same answers as without the shim, one kernel call each" {
    want=$("$PROG" "$L11")
    [ "$(echo "$want" | wc -l)" -eq 2 ]
    [ "$(echo "$want" | sed -n 1p | cut -d' ' -f2)" = "$(echo "$want" | sed -n 2p | cut -d' ' -f2)" ]
    got=$(CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" "$PROG" "$L11")
    [ "$got" = "$want" ]
    [ "$(stats_sum "$STATS" portable mod_exp 1024)" -eq 2 ]
    "$CLI" stats "$STATS" | grep -q '^# route libcrypto.so.3: .* modexp symbols'
}

@test "3.x linked and 1.1.1 opened RTLD_LOCAL, CRYPTOSHIM_DISABLE=1: same answers, no kernel call" {
    want=$("$PROG" "$L11")
    got=$(CRYPTOSHIM_DISABLE=1 CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" \
        LD_PRELOAD="$SHIM" "$PROG" "$L11")
    [ "$got" = "$want" ]
    [ "$(stats_sum "$STATS" portable)" -eq 0 ]
}

@test "info --lib shows both libraries and their routes" {
    run "$CLI" info --lib "$L11"
    [ "$status" -eq 0 ]
    echo "$output" | grep -A2 -F "$L11" | grep -q 'OpenSSL 1.1.1'
    echo "$output" | grep -A2 -F "$L11" | grep -q 'modexp route *symbols'
}
