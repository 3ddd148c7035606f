#!/usr/bin/env bats
# TLS 1.3 with ML-DSA-44/65/87 certificates and the default X25519MLKEM768
# group through build/openssl35 (`make openssl35`), the shim preloaded into
# s_server and s_client; RSA through the same tree for the BN path. Skipped
# when build/openssl35 is absent. About 5 s.

load "helpers/common"

setup_file() {
    cs_env
    cs_ready || return 0
    O35=$CS_BUILD/openssl35/bin/openssl
    [ -x "$O35" ] || return 0
    local d=$BATS_FILE_TMPDIR ps port
    for ps in 44 65 87; do
        "$O35" req -x509 -newkey "ML-DSA-$ps" -nodes -days 2 -subj /CN=localhost \
            -keyout "$d/mldsa$ps.key" -out "$d/mldsa$ps.crt" 2>/dev/null
    done
    "$O35" req -x509 -newkey rsa:3072 -nodes -days 2 -subj /CN=localhost \
        -keyout "$d/rsa3072.key" -out "$d/rsa3072.crt" 2>/dev/null
    for name in mldsa44 mldsa65 mldsa87 rsa3072; do
        port=$(free_port)
        echo "$port" >"$d/$name.port"
        start_daemon "s_server_$name" "$d/$name.log" \
            env CRYPTOSHIM_STATS="$d/$name.stats" LD_PRELOAD="$SHIM" \
            "$O35" s_server -accept "127.0.0.1:$port" -cert "$d/$name.crt" -key "$d/$name.key" \
            -www -quiet -num_tickets 0
        wait_port "$port"
    done
}

teardown_file() {
    local name
    for name in mldsa44 mldsa65 mldsa87 rsa3072; do
        stop_daemon "s_server_$name"
    done
}

setup() {
    cs_env
    cs_require
    O35=$CS_BUILD/openssl35/bin/openssl
    [ -x "$O35" ] || skip "build/openssl35 absent (make openssl35)"
    D=$BATS_FILE_TMPDIR
    CSTATS=$BATS_TEST_TMPDIR/client.stats
}

# handshake NAME [ENV...]: s_client (3.5, shim preloaded) against the NAME
# server with default groups, verifying its certificate.
handshake() {
    local name=$1; shift
    run env "$@" CRYPTOSHIM_STATS="$CSTATS" LD_PRELOAD="$SHIM" \
        "$O35" s_client -connect "127.0.0.1:$(cat "$D/$name.port")" -brief -servername localhost \
        -verifyCAfile "$D/$name.crt" -verify_return_error </dev/null
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Protocol version: TLSv1.3"* ]]
    [[ "$output" == *"Verification: OK"* ]]
    [[ "$output" == *"X25519MLKEM768"* ]]
}

@test "TLS 1.3 ML-DSA-44 certificate, X25519MLKEM768" {
    handshake mldsa44
    [[ "$output" == *"Signature type: mldsa44"* || "$output" == *"ML-DSA-44"* ]]
}

@test "TLS 1.3 ML-DSA-65 certificate, X25519MLKEM768" {
    handshake mldsa65
    [[ "$output" == *"Signature type: mldsa65"* || "$output" == *"ML-DSA-65"* ]]
}

@test "TLS 1.3 ML-DSA-87 certificate, X25519MLKEM768" {
    handshake mldsa87
    [[ "$output" == *"Signature type: mldsa87"* || "$output" == *"ML-DSA-87"* ]]
}

@test "OpenSSL 3.5 with an RSA-3072 certificate: BN calls through the shim (portable)" {
    handshake rsa3072 CRYPTOSHIM_KERNELS=portable
    stats_rows "$CSTATS"
    [ "$(stats_sum "$CSTATS" portable mod_exp 3072)" -gt 0 ]
    stats_rows "$D/rsa3072.stats"
    [ "$(stats_sum "$D/rsa3072.stats")" -gt 0 ]
}

@test "the shim's ML-DSA provider signs and verifies in the handshakes" {
    nm -D --defined-only "$SHIM" | grep -q ' OSSL_provider_init' ||
        skip "libcryptoshim.so has no ML-DSA provider yet"
    local ps signs
    for ps in 44 65 87; do
        handshake "mldsa$ps"
        stats_rows "$D/mldsa$ps.stats"
        signs=$(stats_sum "$D/mldsa$ps.stats" '!libcrypto' mldsa_sign "$ps")
        [ "$signs" -gt 0 ]
    done
    stats_rows "$CSTATS"
    [ "$(stats_sum "$CSTATS" '!libcrypto' mldsa_verify)" -gt 0 ]
}

@test "the 3.5 servers are still up" {
    local name
    for name in mldsa44 mldsa65 mldsa87 rsa3072; do
        daemon_alive "s_server_$name"
    done
}
