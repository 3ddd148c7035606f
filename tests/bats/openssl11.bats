#!/usr/bin/env bats
# The same library serves OpenSSL 1.1.1 processes (Debian 11's openssl and
# libssl1.1 unpacked by `make openssl11`), whose libcrypto references the
# interposed functions at version OPENSSL_1_1_0. About 10 s.

load "helpers/common"

setup() {
    cs_env
    cs_require
    need_tree OSSL11 11 bin/openssl
    STATS=$BATS_TEST_TMPDIR/o11.stats
}

@test "1.1.1: speed rsa2048 dsa2048 goes through the portable kernel when forced" {
    run env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" \
        "$OSSL11" speed -seconds 1 rsa2048 dsa2048
    [ "$status" -eq 0 ]
    [[ "$output" == *"OpenSSL 1.1.1"* ]]
    [ "$(stats_sum "$STATS" portable mod_exp 2048)" -gt 0 ]
    [ "$(stats_sum "$STATS" portable mod_exp_consttime 1024)" -gt 0 ]
}

@test "1.1.1: RSA-3072 signatures through the shim equal OpenSSL's own" {
    "$OSSL11" genrsa -out "$BATS_TEST_TMPDIR/k.pem" 3072 2>/dev/null
    head -c 1000 /dev/urandom >"$BATS_TEST_TMPDIR/msg"
    "$OSSL11" dgst -sha256 -sign "$BATS_TEST_TMPDIR/k.pem" -out "$BATS_TEST_TMPDIR/a.sig" \
        "$BATS_TEST_TMPDIR/msg"
    env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" \
        "$OSSL11" dgst -sha256 -sign "$BATS_TEST_TMPDIR/k.pem" -out "$BATS_TEST_TMPDIR/b.sig" \
        "$BATS_TEST_TMPDIR/msg"
    cmp "$BATS_TEST_TMPDIR/a.sig" "$BATS_TEST_TMPDIR/b.sig"
    [ "$(stats_sum "$STATS" portable mod_exp_consttime 1536)" -ge 2 ]
}

@test "1.1.1: CRYPTOSHIM_DISABLE=1 passes every call through" {
    run env CRYPTOSHIM_DISABLE=1 CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" \
        LD_PRELOAD="$SHIM" "$OSSL11" speed -seconds 1 rsa2048
    [ "$status" -eq 0 ]
    [ "$(stats_sum "$STATS" portable mod_exp 2048)" -eq 0 ]
    [ "$(stats_sum "$STATS" libcrypto mod_exp 2048)" -gt 0 ]
}
