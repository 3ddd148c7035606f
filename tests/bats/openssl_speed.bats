#!/usr/bin/env bats
# `openssl speed` (system OpenSSL 3.0) with the shim preloaded: the modular
# exponentiations of RSA, DSA and DH go through it and show up in the stats.
# About 20 s (three 1-second runs of three algorithms).

load "helpers/common"

SPEED_ALGS="rsa2048 dsa2048 ffdh2048"

setup() {
    cs_env
    cs_require
    STATS=$BATS_TEST_TMPDIR/speed.stats
}

# run_speed ENV...: openssl speed under the shim with extra environment.
run_speed() {
    run env "$@" CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" \
        openssl speed -seconds 1 $SPEED_ALGS
}

@test "speed rsa2048 dsa2048 ffdh2048 with portable forced: kernel calls for each" {
    run_speed CRYPTOSHIM_KERNELS=portable
    [ "$status" -eq 0 ]
    [[ "$output" == *"rsa 2048 bits"* ]]
    [[ "$output" == *"dsa 2048 bits"* ]]
    [[ "$output" == *"2048 bits ffdh"* ]]
    stats_rows "$STATS"
    # RSA verify: public exponent, 2048-bit modulus, plain mod_exp.
    [ "$(stats_sum "$STATS" portable mod_exp 2048)" -gt 0 ]
    # RSA sign (CRT halves), DSA sign and DH: secret exponents.
    local secret
    secret=$(stats_rows "$STATS" | awk -F'\t' '$2 == "portable" && $1 ~ /^mod_exp_consttime/ { s += $4 } END { print s + 0 }')
    [ "$secret" -gt 0 ]
}

@test "speed under the default policy: every call is counted" {
    run_speed
    [ "$status" -eq 0 ]
    stats_rows "$STATS"
    [ "$(stats_sum "$STATS")" -gt 100 ]
}

@test "CRYPTOSHIM_DISABLE=1: speed runs and no shim kernel is called" {
    run_speed CRYPTOSHIM_DISABLE=1 CRYPTOSHIM_KERNELS=portable
    [ "$status" -eq 0 ]
    [[ "$output" == *"rsa 2048 bits"* ]]
    stats_rows "$STATS"
    [ "$(stats_sum "$STATS" '!libcrypto')" -eq 0 ]
}
