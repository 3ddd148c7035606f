#!/usr/bin/env bats
# `cryptoshim ab` with the curves of today's handshakes (issue 36): ECDSA
# P-256 and Ed25519 certificates, the x25519 group and the ML-KEM hybrids
# (the harness takes the newest unpacked OpenSSL 3.5+ for them by itself),
# and an Ed25519 host key on OpenSSH 10.x (build/openssh10, sid's sshd on
# sid's OpenSSL 3.6) with its default key exchange. Short runs without a
# capture; timing never decides (a verdict of either sign passes). Checks
# what was negotiated and that B's X25519 / Ed25519 calls reach a kernel of
# the shim where `cryptoshim info` routes them to one. About 35 s.

load "helpers/common"
load "helpers/ab"

setup() {
    ab_setup ""
}

# curve_kernel ALG: true when `cryptoshim info` routes ALG (X25519, Ed25519)
# to a kernel of the shim on this CPU (its row names a kernel and no "not offered").
curve_kernel() {
    "$CLI" info 2>/dev/null | awk -v a="$1" '$1 == a && $2 != "libcrypto" && !/not offered/ { f = 1 }
        END { exit !f }'
}

# x25519_in_b: where a kernel of the shim serves X25519 on this CPU, B's
# run derived on it (at least 5 times: the warm-up and the timed handshakes).
x25519_in_b() {
    if curve_kernel X25519; then
        [ "$(stats_sum "$OUT/b.stats" '!libcrypto' x25519_derive)" -ge 5 ]
    fi
}

# newest_openssl3: the newest unpacked 3.5+ tree the client can use (3.6, 3.5).
newest_openssl3() {
    local v
    for v in 36 35; do
        [ -x "$CS_BUILD/openssl$v/bin/openssl" ] && { echo "$CS_BUILD/openssl$v"; return; }
    done
}

@test "ab tls: ECDSA P-256 certificate, x25519 on the system's OpenSSL; B's X25519 in the shim" {
    ab_run "$OUT" tls --cert ecdsa-p256 --groups x25519 -n 4 --block 2 --no-capture
    grep -q '^# cryptoshim A/B: openssl s_server, ecdsa-p256 certificate, TLS 1.3, groups x25519' \
        "$OUT/report.md"
    grep -q '^- negotiated with A: TLSv1.3 .*group x25519, server signature id-ecPublicKey' \
        "$OUT/report.md"
    grep -q '^- negotiated with B: TLSv1.3 .*group x25519' "$OUT/report.md"
    x25519_in_b
    [ -z "$(ab_left "$OUT")" ]
}

@test "ab nginx: ECDSA P-256 and x25519 on Debian 12's nginx and OpenSSL 3.0; B's X25519 in the shim" {
    [ -x /usr/sbin/nginx ] || skip "nginx not installed"
    ab_run "$OUT" nginx --cert ecdsa-p256 --groups x25519 -n 4 --block 2 --no-capture
    grep -q '^- negotiated with B: TLSv1.3 .*group x25519, server signature id-ecPublicKey' \
        "$OUT/report.md"
    x25519_in_b
    [ -z "$(ab_left "$OUT")" ]
}

@test "ab tls: Ed25519 chain verified, X25519MLKEM768 without --openssl takes the newest 3.5+ build" {
    local tree
    tree=$(newest_openssl3)
    [ -n "$tree" ] || skip "no build/openssl36 or openssl35 (make deps)"
    ab_run "$OUT" tls --cert ed25519 --verify --groups X25519MLKEM768 -n 4 --block 2 --no-capture
    grep -q "^- --groups X25519MLKEM768 needs OpenSSL 3.5 or later (the system's is 3.0): s_server and the client run from $tree\$" \
        "$OUT/report.md"
    grep -q '^- negotiated with B: TLSv1.3 .*group X25519MLKEM768, server signature ED25519, chain verified' \
        "$OUT/report.md"
    x25519_in_b
}

@test "ab tls --a --b: X25519MLKEM768 offered through the newest 3.5+ build's libssl" {
    local tree pa pb
    tree=$(newest_openssl3)
    [ -n "$tree" ] || skip "no build/openssl36 or openssl35 (make deps)"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
        -subj /CN=localhost -keyout "$BATS_TEST_TMPDIR/k.pem" -out "$BATS_TEST_TMPDIR/c.pem" 2>/dev/null
    pa=$(free_port) pb=$(free_port)
    for p in "$pa" "$pb"; do
        start_daemon "s$p" "$BATS_TEST_TMPDIR/s$p.log" "$tree/bin/openssl" s_server \
            -accept "127.0.0.1:$p" -cert "$BATS_TEST_TMPDIR/c.pem" -key "$BATS_TEST_TMPDIR/k.pem" \
            -www -quiet -num_tickets 0 -groups X25519MLKEM768
        wait_port "$p"
    done
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --groups X25519MLKEM768 -n 4 \
        --block 2 --no-capture
    stop_daemon "s$pa"; stop_daemon "s$pb"
    grep -q "^- --groups X25519MLKEM768 needs OpenSSL 3.5 or later (the system's is 3.0): the client runs with libssl from $tree\$" \
        "$OUT/report.md"
    grep -q '^- negotiated with A: TLSv1.3 .*group X25519MLKEM768' "$OUT/report.md"
}

@test "ab: hybrid groups with no 3.5+ build, an Ed25519 host key with no OpenSSH 10 tree, --kex default with --a: one sentence each" {
    local empty=$BATS_TEST_TMPDIR/empty
    mkdir -p "$empty"
    run /usr/bin/python3 "$CS_ROOT/ab/ab.py" tls --groups X25519MLKEM768 --no-capture \
        --bindir "$empty" --lib "$SHIM" --out "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--groups X25519MLKEM768 needs OpenSSL 3.5 or later for the client and s_server; the system's is 3.0 and no unpacked build was found (openssl36 or openssl35 under $empty"* ]]
    mkdir -p "$empty/openssh10"
    echo "sid no longer carries openssh-server" >"$empty/openssh10/.missing"
    run /usr/bin/python3 "$CS_ROOT/ab/ab.py" ssh --hostkey ed25519 --no-capture \
        --bindir "$empty" --lib "$SHIM" --out "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--hostkey ed25519 runs OpenSSH 10.3 or later"*"$empty/openssh10, which is missing (sid no longer carries openssh-server)"* ]]
    run "$CLI" ab ssh --a 127.0.0.1:1 --b 127.0.0.1:2 --kex default
    [ "$status" -eq 2 ]
    [[ "$output" == *"--kex default is for harness-started logins"* ]]
    run "$CLI" ab tls --cert ecdsa-p384
    [ "$status" -eq 2 ]
    [[ "$output" == *"argument --cert: invalid choice: 'ecdsa-p384'"* ]]
}

@test "ab ssh: Ed25519 host key on OpenSSH 10 (sid), default key exchange; every host-key signature in the shim" {
    [ "$(id -u)" -eq 0 ] || skip "sshd with privilege separation needs root"
    [ -x "$CS_BUILD/openssh10/bin/run" ] || skip "build/openssh10 missing: $(cat "$CS_BUILD/openssh10/.missing" 2>/dev/null || echo 'make openssh10')"
    ab_run "$OUT" ssh --hostkey ed25519 -n 4 --block 2 --no-capture
    grep -Eq "^# cryptoshim A/B: sshd OpenSSH_10\.[0-9]+.*, Ed25519 host key \(ssh-ed25519\), the server's default key exchange" \
        "$OUT/report.md"
    grep -Eq '^- negotiated with B: algorithm: [a-z0-9-]+.*, host key algorithm: ssh-ed25519' \
        "$OUT/report.md"
    if curve_kernel Ed25519; then
        # one signature per login: the warm-up and the 4 timed ones, none by libcrypto
        [ "$(stats_sum "$OUT/b.stats" '!libcrypto' ed25519_sign)" -eq 5 ]
        [ "$(stats_sum "$OUT/b.stats" libcrypto ed25519_sign)" -eq 0 ]
    fi
    [ -z "$(ab_left "$OUT")" ]
}
