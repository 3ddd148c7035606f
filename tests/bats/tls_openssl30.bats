#!/usr/bin/env bats
# TLS 1.2 and 1.3 handshakes between `openssl s_server` and `s_client` (system
# OpenSSL 3.0), RSA-2048 certificate, DHE and ffdhe key exchange, with the shim
# forced to its portable kernel in both the server and the client. About 5 s.

load "helpers/common"

setup_file() {
    cs_env
    cs_ready || return 0
    local d=$BATS_FILE_TMPDIR
    make_rsa_cert "$d" server 2048
    PORT=$(free_port)
    echo "$PORT" >"$d/port"
    start_daemon s_server "$d/s_server.log" \
        env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$d/server.stats" LD_PRELOAD="$SHIM" \
        openssl s_server -accept "127.0.0.1:$PORT" -cert "$d/server.crt" -key "$d/server.key" \
        -www -quiet -num_tickets 0 -groups ffdhe2048:ffdhe3072:ffdhe4096:X25519
    wait_port "$PORT"
}

teardown_file() {
    stop_daemon s_server
}

setup() {
    cs_env
    cs_require
    D=$BATS_FILE_TMPDIR
    PORT=$(cat "$D/port")
    CSTATS=$BATS_TEST_TMPDIR/client.stats
}

# handshake ENV... -- ARGS...: one s_client handshake under the shim (portable
# forced) with extra environment and s_client arguments; output in $output.
handshake() {
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    run env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$CSTATS" "${envs[@]}" LD_PRELOAD="$SHIM" \
        openssl s_client -connect "127.0.0.1:$PORT" -brief -servername localhost \
        -verifyCAfile "$D/server.crt" -verify_return_error "$@" </dev/null
    echo "$output"
}

# server_calls: shim-kernel calls counted so far in the server.
server_calls() {
    stats_sum "$D/server.stats" portable
}

# server_handshake ARGS...: handshake -- ARGS, which must succeed and add
# calls of the server's portable kernel (the server's rows printed).
server_handshake() {
    local before after
    before=$(server_calls)
    handshake -- "$@"
    [ "$status" -eq 0 ]
    after=$(server_calls)
    stats_rows "$D/server.stats"
    [ "$after" -gt "$before" ]
}

@test "TLS 1.3 ffdhe2048, RSA-PSS certificate verify: portable kernel on both sides" {
    server_handshake -tls1_3 -groups ffdhe2048
    output_has "Protocol version: TLSv1.3" "Verification: OK" "Server Temp Key: DH, 2048 bits"
    stats_rows "$CSTATS"
    # Client: RSA verify (public exponent) and its DH key share.
    [ "$(stats_sum "$CSTATS" portable mod_exp 2048)" -gt 0 ]
    [ "$(stats_sum "$CSTATS" portable)" -ge 2 ]
}

@test "TLS 1.3 ffdhe3072" {
    handshake -- -tls1_3 -groups ffdhe3072
    [ "$status" -eq 0 ]
    [[ "$output" == *"Server Temp Key: DH, 3072 bits"* ]]
    [ "$(stats_sum "$CSTATS" portable '*' 3072)" -gt 0 ]
}

@test "TLS 1.3 ffdhe4096" {
    handshake -- -tls1_3 -groups ffdhe4096
    [ "$status" -eq 0 ]
    [[ "$output" == *"Server Temp Key: DH, 4096 bits"* ]]
    [ "$(stats_sum "$CSTATS" portable '*' 4096)" -gt 0 ]
}

@test "TLS 1.2 DHE-RSA-AES128-GCM-SHA256" {
    server_handshake -tls1_2 -cipher DHE-RSA-AES128-GCM-SHA256
    output_has "Protocol version: TLSv1.2" "Ciphersuite: DHE-RSA-AES128-GCM-SHA256" "Server Temp Key: DH,"
    [ "$(stats_sum "$CSTATS" portable)" -ge 2 ]
}

@test "TLS 1.2 ECDHE-RSA: only the RSA signature goes through the shim" {
    server_handshake -tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384
    [[ "$output" == *"Ciphersuite: ECDHE-RSA-AES256-GCM-SHA384"* ]]
    [ "$(stats_sum "$CSTATS" portable mod_exp 2048)" -gt 0 ]
}

@test "TLS 1.3 handshakes in a row all verify (kernel answers are exact)" {
    local i
    for i in 1 2 3 4 5; do
        handshake -- -tls1_3 -groups ffdhe2048
        [ "$status" -eq 0 ]
        [[ "$output" == *"Verification: OK"* ]]
    done
}

@test "CRYPTOSHIM_DISABLE=1 in the client: handshake works, no shim kernel called" {
    handshake CRYPTOSHIM_DISABLE=1 -- -tls1_3 -groups ffdhe2048
    [ "$status" -eq 0 ]
    [[ "$output" == *"Verification: OK"* ]]
    [ "$(stats_sum "$CSTATS" '!libcrypto')" -eq 0 ]
}

@test "the server is still up and counted calls in portable only" {
    daemon_alive s_server
    stats_rows "$D/server.stats"
    [ "$(server_calls)" -gt 0 ]
}
