#!/usr/bin/env bats
# A TLS handshake under every OpenSSL version with that version's s_server and
# s_client, the shim preloaded into both, on loopback high ports:
#   - an RSA-2048 certificate with finite-field DH in ffdhe2048 (TLS 1.3
#     group ffdhe2048; 1.1.1 has no FFDHE groups in TLS 1.3, so TLS 1.2
#     DHE-RSA with the ffdhe2048 parameters), portable kernel forced: both
#     sides' stats show the kernel's calls (server: the 1024-bit CRT halves and
#     the 2048-bit DH; client: 2048-bit verification and DH);
#   - an ML-DSA-65 certificate on 3.5 and later: the shim's provider signs
#     (server) and verifies (client).
# On 3.6 and 4.0 these need the method route and, on 4.0, the provider
# trigger at OPENSSL_4.0.0. About 20 s.

load "../bats/helpers/common"
load "versions"

setup_file() {
    cs_env
    local d=$BATS_FILE_TMPDIR
    env -u LD_PRELOAD openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj /CN=localhost \
        -keyout "$d/rsa.key" -out "$d/rsa.crt" 2>/dev/null
    env -u LD_PRELOAD openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048 \
        -out "$d/ffdhe2048.pem" 2>/dev/null
}

setup() {
    cs_env
    cs_require
    D=$BATS_FILE_TMPDIR
    T=$BATS_TEST_TMPDIR
}

teardown() {
    stop_daemon "s_server"
}

# serve NAME CERT KEY [ENV... --] ARGS...: the version's s_server with the
# shim (stats in $T/NAME.server.stats) on a free port, written to $T/port.
serve() {
    local name=$1 cert=$2 key=$3 port envs=(); shift 3
    if [[ " $* " == *" -- "* ]]; then
        while [ "$1" != -- ]; do envs+=("$1"); shift; done
        shift
    fi
    port=$(free_port)
    echo "$port" >"$T/port"
    start_daemon s_server "$T/$name.server.log" \
        env "${envs[@]}" CRYPTOSHIM_STATS="$T/$name.server.stats" LD_PRELOAD="$SHIM" \
        "${V_RUN[@]}" "$V_OSSL" s_server -accept "127.0.0.1:$port" -cert "$cert" -key "$key" \
        -www -quiet -num_tickets 0 "$@"
    wait_port "$port"
}

# connect NAME CAFILE [ENV... --] ARGS...: the version's s_client with the shim
# (stats in $T/NAME.client.stats), verifying the server against CAFILE.
connect() {
    local name=$1 ca=$2 envs=(); shift 2
    if [[ " $* " == *" -- "* ]]; then
        while [ "$1" != -- ]; do envs+=("$1"); shift; done
        shift
    fi
    run shimmed "${envs[@]}" CRYPTOSHIM_STATS="$T/$name.client.stats" -- \
        "$V_OSSL" s_client -connect "127.0.0.1:$(cat "$T/port")" -brief -servername localhost \
        -verifyCAfile "$ca" -verify_return_error "$@" </dev/null
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Verification: OK"* ]]
}

# rsa_ffdhe VER: RSA-2048 certificate, ffdhe2048 key exchange, portable forced.
rsa_ffdhe() {
    version_use "$1"
    local tls=(-groups ffdhe2048) proto=TLSv1.3
    if [ "$1" = 11 ]; then
        tls=(-tls1_2 -cipher DHE-RSA-AES128-GCM-SHA256) proto=TLSv1.2
        serve rsa "$D/rsa.crt" "$D/rsa.key" CRYPTOSHIM_KERNELS=portable -- "${tls[@]}" \
            -dhparam "$D/ffdhe2048.pem"
    else
        serve rsa "$D/rsa.crt" "$D/rsa.key" CRYPTOSHIM_KERNELS=portable -- "${tls[@]}"
    fi
    connect rsa "$D/rsa.crt" CRYPTOSHIM_KERNELS=portable -- "${tls[@]}"
    [[ "$output" == *"Protocol version: $proto"* ]]
    [[ "$output" == *"Temp Key: DH, 2048 bits"* ]]
    stop_daemon s_server
    echo "server:"; stats_rows "$T/rsa.server.stats"
    echo "client:"; stats_rows "$T/rsa.client.stats"
    [ "$(stats_sum "$T/rsa.server.stats" portable '*' 1024)" -gt 0 ]
    [ "$(stats_sum "$T/rsa.server.stats" portable '*' 2048)" -gt 0 ]
    [ "$(stats_sum "$T/rsa.client.stats" portable '*' 2048)" -gt 0 ]
}

# mldsa65 VER: ML-DSA-65 certificate made by the version's own openssl.
mldsa65() {
    version_use "$1"
    stock "$V_OSSL" req -x509 -newkey ML-DSA-65 -nodes -days 2 -subj /CN=localhost \
        -keyout "$T/mldsa65.key" -out "$T/mldsa65.crt" 2>/dev/null
    serve mldsa65 "$T/mldsa65.crt" "$T/mldsa65.key"
    connect mldsa65 "$T/mldsa65.crt"
    [[ "$output" == *"Protocol version: TLSv1.3"* ]]
    [[ "$output" == *"mldsa65"* || "$output" == *"ML-DSA-65"* ]]
    stop_daemon s_server
    echo "server:"; stats_rows "$T/mldsa65.server.stats"
    echo "client:"; stats_rows "$T/mldsa65.client.stats"
    [ "$(stats_sum "$T/mldsa65.server.stats" '!libcrypto' mldsa_sign 65)" -gt 0 ]
    [ "$(stats_sum "$T/mldsa65.client.stats" '!libcrypto' mldsa_verify 65)" -gt 0 ]
}

@test "1.1.1: TLS 1.2 DHE-RSA (RSA-2048, ffdhe2048), portable kernel calls on both sides" { rsa_ffdhe 11; }
@test "3.0: TLS 1.3 RSA-2048 certificate, ffdhe2048, portable kernel calls on both sides" { rsa_ffdhe 30; }
@test "3.5: TLS 1.3 RSA-2048 certificate, ffdhe2048, portable kernel calls on both sides" { rsa_ffdhe 35; }
@test "3.6: TLS 1.3 RSA-2048 certificate, ffdhe2048, portable kernel calls on both sides" { rsa_ffdhe 36; }
@test "4.0: TLS 1.3 RSA-2048 certificate, ffdhe2048, portable kernel calls on both sides" { rsa_ffdhe 40; }
@test "3.5: TLS 1.3 ML-DSA-65 certificate, the shim's provider signs and verifies" { mldsa65 35; }
@test "3.6: TLS 1.3 ML-DSA-65 certificate, the shim's provider signs and verifies" { mldsa65 36; }
@test "4.0: TLS 1.3 ML-DSA-65 certificate, the shim's provider signs and verifies" { mldsa65 40; }
