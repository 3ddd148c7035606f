#!/usr/bin/env bats
# s390x end to end under qemu-s390x: Debian 12's s390x openssl and libssl3
# (unpacked into build/sysroot-s390x by scripts/oldhw/sysroot-s390x.sh) with
# the s390x shim (make CROSS=s390x) preloaded and its kernel forced, so every
# modular exponentiation goes through s390x_mlgr; stats must show the calls.
# Run by `make test` and `make test-cross` (about a minute); a failed sysroot
# fetch or build is a test failure, only a missing qemu a skip (and under
# test-cross, CS_CROSS_FULL=1, a failure too).

load cross

setup_file() {
    cross_setup_file
    export SYSROOT=$ROOT/build/sysroot-s390x
    export SHIM390=$ROOT/build/cross-s390x/libcryptoshim.so
    export CLI390=$ROOT/build/cross-s390x/cryptoshim
    export OSSL40=$ROOT/build/s390x/openssl40
    if command -v qemu-s390x >/dev/null && command -v s390x-linux-gnu-gcc >/dev/null; then
        cross_step "fetching the s390x sysroot" 15 "$ROOT/scripts/oldhw/sysroot-s390x.sh" "$SYSROOT"
        cross_step "the s390x shim build" 15 make -s -C "$ROOT" CROSS=s390x all build/cross-s390x/cryptoshim
        # Debian's s390x OpenSSL 4.0 (experimental; a moving suite: when it
        # no longer carries libssl4, .missing says so and its test skips).
        cross_step "fetching Debian's s390x OpenSSL 4.0" 5 "$ROOT/scripts/fetch-debian-openssl.sh" \
            --arch s390x "$OSSL40" experimental,sid openssl/experimental libssl4/experimental libc6 \
            libgcc-s1 zlib1g libzstd1
    elif [ "${CS_CROSS_FULL:-0}" = 1 ]; then
        echo "make test-cross needs qemu-s390x (qemu-user) and s390x-linux-gnu-gcc" >>"$PROBLEM"
    fi
}

setup() {
    cross_setup qemu-s390x
    [ -f "$SYSROOT/.done" ] || { echo "s390x sysroot missing after its fetch"; return 1; }
    [ -f "$SHIM390" ] || { echo "s390x shim missing after its build"; return 1; }
}

# ossl390 ARGS...: the s390x openssl under qemu with the shim preloaded
# (guest environment only, so qemu itself is not preloaded).
ossl390() {
    qemu-s390x -L "$SYSROOT" -E LD_PRELOAD="$SHIM390" -E CRYPTOSHIM_KERNELS=s390x_mlgr \
        -E CRYPTOSHIM_STATS="$STATS" "$SYSROOT/usr/bin/openssl" "$@"
}

@test "s390x openssl speed rsa2048 ffdh2048 runs on the s390x_mlgr kernel" {
    STATS=$TMPD/speed.stats
    run ossl390 speed -seconds 1 rsa2048 ffdh2048
    [ "$status" -eq 0 ]
    echo "$output" | grep -q '^rsa 2048 bits'
    [ "$(crt s390x_mlgr 1024)" -gt 0 ]                       # RSA sign, CRT halves
    [ "$(calls s390x_mlgr mod_exp 2048)" -gt 0 ]             # RSA verify
    [ "$(calls s390x_mlgr mod_exp_consttime 2048)" -gt 0 ]   # FFDH
    [ "$(crt libcrypto 1024)" -eq 0 ]
}

@test "s390x s_server/s_client TLS 1.2 DHE-RSA and TLS 1.3 ffdhe2048 handshakes through the shim" {
    mkfifo "$TMPD/stdin" # the server's stdin: open, never at EOF
    openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
        -keyout "$TMPD/key.pem" -out "$TMPD/cert.pem" 2>/dev/null
    for mode in tls12 tls13; do
        STATS=$TMPD/$mode.stats
        port=$(/usr/bin/python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        if [ $mode = tls12 ]; then
            sargs=(-tls1_2 -cipher DHE-RSA-AES128-GCM-SHA256)
            cargs=(-tls1_2 -cipher DHE-RSA-AES128-GCM-SHA256)
        else
            sargs=(-tls1_3 -groups ffdhe2048)
            cargs=(-tls1_3 -groups ffdhe2048)
        fi
        ossl390 s_server -accept "127.0.0.1:$port" -cert "$TMPD/cert.pem" -key "$TMPD/key.pem" \
            "${sargs[@]}" -naccept 1 >"$TMPD/server.log" 2>&1 <>"$TMPD/stdin" &
        spid=$!
        for _ in $(seq 100); do
            grep -q '^ACCEPT' "$TMPD/server.log" && break
            sleep 0.2
        done
        # Server and client count into files of their own, so each side's
        # calls are checked apart (one shared file works too: test 3).
        run bash -c "echo Q | timeout 120 qemu-s390x -L '$SYSROOT' -E LD_PRELOAD='$SHIM390' \
            -E CRYPTOSHIM_KERNELS=s390x_mlgr -E CRYPTOSHIM_STATS='$STATS.client' \
            '$SYSROOT/usr/bin/openssl' s_client -connect 127.0.0.1:$port ${cargs[*]} -brief"
        kill "$spid" 2>/dev/null || true
        wait "$spid" 2>/dev/null || true
        echo "$output"
        # s_client reports the server closing after one connection as an
        # unexpected EOF; the handshake itself must have completed.
        echo "$output" | grep -q 'CONNECTION ESTABLISHED'
        # Server: RSA sign (CRT, 1024-bit halves) and DH keygen/derive; client:
        # RSA verify and DH keygen/derive.
        [ "$(crt s390x_mlgr 1024)" -gt 0 ]
        [ "$(calls s390x_mlgr mod_exp_consttime 2048)" -gt 0 ]
        STATS=$STATS.client
        [ "$(calls s390x_mlgr mod_exp 2048)" -gt 0 ]
        [ "$(calls s390x_mlgr mod_exp_consttime 2048)" -gt 0 ]
    done
}

# Under qemu-user (qemu-s390x 7.2) IPC_STAT hands an s390x guest the
# segment's mode 16 bits up (0600 as 0140000000): the second process refused
# the first one's segment and named a new one in the file, losing the first
# one's counts. runtime/stats.c reads the shifted mode; this checks the fix.
@test "two s390x processes count into one stats file: the second attaches the first one's segment" {
    STATS=$TMPD/shared.stats
    openssl genrsa -out "$TMPD/shared.pem" 2048 2>/dev/null
    echo message >"$TMPD/msg"
    ossl390 dgst -sha256 -sign "$TMPD/shared.pem" -out "$TMPD/sig1" "$TMPD/msg"
    header=$(head -c 73 "$STATS")
    first=$(crt s390x_mlgr 1024)
    [ "$first" -gt 0 ]
    ossl390 dgst -sha256 -sign "$TMPD/shared.pem" -out "$TMPD/sig2" "$TMPD/msg"
    [ "$(head -c 73 "$STATS")" = "$header" ]     # same segment named
    [ "$(crt s390x_mlgr 1024)" -eq $((2 * first)) ] # both processes' calls
    cmp "$TMPD/sig1" "$TMPD/sig2"
}

@test "s390x cryptoshim info: ML-DSA on s390x_vx, modular exponentiation with libcrypto, and why" {
    run qemu-s390x -L "$SYSROOT" "$CLI390" info
    [ "$status" -eq 0 ]
    echo "$output" | grep -Eq '^  ML-DSA-(44|65|87) +s390x_vx '
    [ "$(echo "$output" | grep -Ec '^  ML-DSA-(44|65|87) +s390x_vx ')" -eq 3 ]
    echo "$output" | grep -q '^policy  *built-in (s390x: ML-DSA on s390x_vx by default, from guest instruction counts'
    echo "$output" | grep -q 's390x_mlgr only when forced (not measured on hardware)'
    echo "$output" | grep -Eq '^  mod_exp_consttime +libcrypto( +libcrypto){7}$'
    ! echo "$output" | grep -E '^ +mod_exp' | grep -q s390x_mlgr
    run qemu-s390x -L "$SYSROOT" -E CRYPTOSHIM_KERNELS=s390x_mlgr "$CLI390" info
    [ "$status" -eq 0 ]
    echo "$output" | grep -Eq '^  mod_exp_consttime +s390x_mlgr( +s390x_mlgr){7}$'
}

# ops40 ARGS...: scripts/oldhw/ossl_ops.c (fixed inputs, deterministic
# signatures) on Debian's s390x OpenSSL 4.0, with $PRE's environment.
ops40() {
    env "${PRE[@]}" "$OSSL40/bin/run" "$TMPD/ossl_ops40" "$@"
}

@test "s390x OpenSSL 4.0: ML-DSA through the shim's provider on s390x_vx gives stock's keys and signatures" {
    [ -f "$OSSL40/.missing" ] && skip "$(cat "$OSSL40/.missing")"
    s390x-linux-gnu-gcc -O2 -isystem "$ROOT/build/cross-s390x/ossl-include" -o "$TMPD/ossl_ops40" \
        "$ROOT/scripts/oldhw/ossl_ops.c" "$OSSL40"/root/usr/lib/s390x-linux-gnu/libcrypto.so.4 \
        -Wl,--allow-shlib-undefined
    STATS=$TMPD/mldsa.stats
    # The preload as qemu's -E, so the wrapper's own shell is not preloaded.
    for c in "ML-DSA-44 keygen 2" "ML-DSA-65 sign 2" "ML-DSA-87 verify 2"; do
        PRE=()
        stock=$(ops40 $c)
        PRE=(QEMU_USER="qemu-s390x -E LD_PRELOAD=$SHIM390 -E CRYPTOSHIM_STATS=$STATS")
        shim=$(ops40 $c)
        echo "stock: $stock; shim: $shim"
        [ -n "$stock" ] && [ "$stock" = "$shim" ]
    done
    [ "$(calls s390x_vx mldsa_keygen 44)" -eq 2 ]
    [ "$(calls s390x_vx mldsa_sign 65)" -eq 3 ]     # the set-up signature and two
    [ "$(calls s390x_vx mldsa_verify 87)" -eq 2 ]
}
