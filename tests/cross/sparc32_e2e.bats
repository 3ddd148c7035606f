#!/usr/bin/env bats
# The SPARC old-hardware story end to end under qemu-sparc32plus: OpenSSL
# built for SPARC v7 (no integer multiply/divide instructions anywhere on its
# big-number path) with and without the 32-bit SPARC shim, whose v8 `umul`
# kernel serves every modular exponentiation because the emulated CPU
# reports MULDIV. The v7 OpenSSL takes about an hour to build: under
# `make test` this suite runs only if it is already cached (else each test
# skips, saying so); `make test-cross` (CS_CROSS_FULL=1) builds it, and there
# a failed build, a missing tool or any skip is a test failure. Speed figures
# come from scripts/oldhw/sparc-e2e.sh, not from here.

load cross

setup_file() {
    cross_setup_file
    if command -v qemu-sparc32plus >/dev/null && command -v sparc64-linux-gnu-gcc >/dev/null; then
        if [ "${CS_CROSS_FULL:-0}" = 1 ]; then
            cross_step "the v7 OpenSSL build" 15 "$ROOT/scripts/oldhw/build-openssl-v7.sh"
        fi
        cross_step "the 32-bit SPARC shim build" 15 make -s -C "$ROOT" CROSS=sparc32 all
    elif [ "${CS_CROSS_FULL:-0}" = 1 ]; then
        echo "make test-cross needs qemu-sparc32plus (qemu-user) and sparc64-linux-gnu-gcc" >>"$PROBLEM"
    fi
}

setup() {
    cross_setup qemu-sparc32plus
    if [ ! -f "$ROOT/build/oldhw/openssl-v7/.done" ]; then
        [ "${CS_CROSS_FULL:-0}" != 1 ] ||
            { echo "v7 OpenSSL missing after its build"; return 1; }
        skip "v7 OpenSSL not cached: its build takes about an hour, so plain make test skips this (make test-cross builds it)"
    fi
    cd "$ROOT"
    . scripts/oldhw/sparc-env.sh
    [ -f "$SPARC_SHIM" ] || { echo "32-bit SPARC shim missing after its build"; return 1; }
    STATS=$TMPD/$BATS_TEST_NUMBER.stats
}

# v7ssl [shim] ARGS...: the v7 openssl under qemu, with the shim if asked.
v7ssl() {
    local pre=()
    if [ "$1" = shim ]; then
        pre=(-E LD_PRELOAD="$SPARC_SHIM" -E CRYPTOSHIM_STATS="$STATS")
        shift
    fi
    qemu-sparc32plus -L "$SPARC_SYSROOT" -E LD_LIBRARY_PATH="$V7/lib" "${pre[@]}" \
        "$V7/bin/openssl" "$@"
}

@test "v7 libcrypto contains no hardware multiply or divide instruction" {
    run bash -c "sparc64-linux-gnu-objdump -d '$V7/lib/libcrypto.so.3' |
        grep -cE '[[:space:]](umul|smul|udiv|sdiv)(cc)?[[:space:]]'"
    [ "$output" = 0 ]
    # Its multiply helper is the software one (mulscc steps).
    sparc64-linux-gnu-objdump -d "$V7/lib/libcrypto.so.3" | grep -q mulscc
}

@test "RSA-1024 and -2048 signatures with the shim equal the v7 OpenSSL's own" {
    head -c 32 /dev/urandom >"$TMPD/digest"
    for bits in 1024 2048; do
        openssl genrsa -out "$TMPD/k$bits.pem" $bits 2>/dev/null
        v7ssl pkeyutl -sign -inkey "$TMPD/k$bits.pem" -in "$TMPD/digest" -out "$TMPD/a$bits"
        v7ssl shim pkeyutl -sign -inkey "$TMPD/k$bits.pem" -in "$TMPD/digest" -out "$TMPD/b$bits"
        cmp "$TMPD/a$bits" "$TMPD/b$bits"
    done
    [ "$(crt sparc_v8 512)" -ge 2 ]    # RSA-1024 CRT halves
    [ "$(crt sparc_v8 1024)" -ge 2 ]   # RSA-2048 CRT halves
    [ "$(crt libcrypto 1024)" -eq 0 ]
}

@test "openssl speed rsa1024 runs on the sparc_v8 kernel" {
    run v7ssl shim speed -seconds 1 rsa1024
    [ "$status" -eq 0 ]
    echo "$output" | grep -q '^rsa 1024 bits'
    [ "$(crt sparc_v8 512)" -gt 0 ]
    [ "$(calls sparc_v8 mod_exp 1024)" -gt 0 ]
}

# handshake SERVER_MODE CLIENT_MODE: TLS 1.2 ECDHE-RSA (RSA-2048 server key)
# between the v7 s_server and s_client, each with or without the shim.
handshake() {
    local smode=$1 cmode=$2 port spid
    mkfifo "$TMPD/stdin.$BATS_TEST_NUMBER"
    openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
        -keyout "$TMPD/key.pem" -out "$TMPD/cert.pem" 2>/dev/null
    port=$(/usr/bin/python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    local sargs=(s_server -accept "127.0.0.1:$port" -cert "$TMPD/cert.pem" -key "$TMPD/key.pem"
        -tls1_2 -naccept 1)
    if [ "$smode" = shim ]; then v7ssl shim "${sargs[@]}"; else v7ssl "${sargs[@]}"; fi \
        >"$TMPD/server.log" 2>&1 <>"$TMPD/stdin.$BATS_TEST_NUMBER" &
    spid=$!
    for _ in $(seq 300); do
        grep -q '^ACCEPT' "$TMPD/server.log" && break
        sleep 0.2
    done
    local cargs=(s_client -connect "127.0.0.1:$port" -tls1_2 -brief)
    if [ "$cmode" = shim ]; then
        run bash -c 'echo Q | timeout 300 "$@"' _ qemu-sparc32plus -L "$SPARC_SYSROOT" \
            -E LD_LIBRARY_PATH="$V7/lib" -E LD_PRELOAD="$SPARC_SHIM" -E CRYPTOSHIM_STATS="$STATS" \
            "$V7/bin/openssl" "${cargs[@]}"
    else
        run bash -c 'echo Q | timeout 300 "$@"' _ qemu-sparc32plus -L "$SPARC_SYSROOT" \
            -E LD_LIBRARY_PATH="$V7/lib" "$V7/bin/openssl" "${cargs[@]}"
    fi
    kill "$spid" 2>/dev/null || true
    wait "$spid" 2>/dev/null || true
    echo "$output"
    echo "$output" | grep -q 'CONNECTION ESTABLISHED'
}

@test "TLS 1.2 handshake between v7 s_server and s_client, shim in both" {
    handshake shim shim
    [ "$(crt sparc_v8 1024)" -gt 0 ]   # server: RSA-2048 sign
    [ "$(calls sparc_v8 mod_exp 2048)" -gt 0 ]             # client: RSA-2048 verify
}

@test "TLS 1.2 handshake without the shim (the v7 baseline)" {
    handshake stock stock
}
