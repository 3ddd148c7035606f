#!/usr/bin/env bats
# `openssl speed -seconds 1 rsa2048 ffdh2048 dsa2048` under every OpenSSL
# version with the shim preloaded and the portable kernel forced: it runs,
# and the stats show the kernel's calls for RSA-2048's 1024-bit CRT halves
# and for the 2048-bit moduli (RSA verification, FFDH, DSA). 1.1.1's speed
# has no ffdh. On 3.6 and 4.0 this needs the default-method route. About 45 s.

load "../bats/helpers/common"
load "versions"

setup() {
    cs_env
    cs_require
}

# speed VER
speed() {
    version_use "$1"
    local stats=$BATS_TEST_TMPDIR/speed.stats algs="rsa2048 ffdh2048 dsa2048"
    [ "$1" = 11 ] && algs="rsa2048 dsa2048"
    # shellcheck disable=SC2086
    run shimmed CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$stats" -- \
        "$V_OSSL" speed -seconds 1 $algs
    echo "$output" | tail -6
    [ "$status" -eq 0 ]
    [[ "$output" == *"rsa2048"* || "$output" == *"rsa 2048 bits"* ]]
    [[ "$output" == *"dsa2048"* || "$output" == *"dsa 2048 bits"* ]]
    stats_rows "$stats"
    [ "$(stats_sum "$stats" portable '*' 1024)" -gt 0 ]
    [ "$(stats_sum "$stats" portable '*' 2048)" -gt 0 ]
}

@test "1.1.1: openssl speed rsa2048 dsa2048, portable kernel calls in the stats" { speed 11; }
@test "3.0: openssl speed rsa2048 ffdh2048 dsa2048, portable kernel calls in the stats" { speed 30; }
@test "3.5: openssl speed rsa2048 ffdh2048 dsa2048, portable kernel calls in the stats" { speed 35; }
@test "3.6: openssl speed rsa2048 ffdh2048 dsa2048, portable kernel calls in the stats" { speed 36; }
@test "4.0: openssl speed rsa2048 ffdh2048 dsa2048, portable kernel calls in the stats" { speed 40; }
