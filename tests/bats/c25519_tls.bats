#!/usr/bin/env bats
# TLS 1.3 handshakes on X25519 (and X25519MLKEM768, whose classical half is
# X25519, on 3.5+) with an Ed25519 certificate, between s_server and
# s_client of OpenSSL 3.0 (the system's), 3.5, 3.6 and 4.0: the shim in both
# sides (each side's X25519 and Ed25519 calls counted: key share, shared
# secret, CertificateVerify signed by the server and verified by the
# client) or in one side against stock on the other. The curve
# implementation is forced (C25519_KERNELS, default x86_64-adx,x86_64-mulx,portable:
# the first that runs here): by default
# the provider offers the curves only where one was measured faster than
# libcrypto's. Loopback only; every process bounded by timeout. Needs `ss`.

load mldsa_helpers

C25519_KERNELS=${C25519_KERNELS:-x86_64-adx,x86_64-mulx,portable}

setup() {
    mldsa_require
    need_cmd ss
    cd "$BATS_TEST_TMPDIR"
}

# handshake OPENSSL GROUP SERVER_SHIM CLIENT_SHIM: one TLS 1.3 handshake on
# loopback offering only GROUP, the server's certificate Ed25519; the
# client must report the group and an Ed25519 peer signature.
handshake() {
    tls_group_handshake 60 "$C25519_KERNELS" "$1" "$2" "$3" "$4" ed.pem ed.key \
        "(Negotiated TLS1.3 group|Server Temp Key|Peer Temp Key): $2" "Peer signature type: [Ee][Dd]25519"
}

# need STATS OP MIN: at least MIN calls of OP on our kernels in STATS.
need() {
    local n
    n=$(calls "$1" "$2")
    if [ "$n" -lt "$3" ]; then
        echo "$1: $n $2 calls on our kernels, expected at least $3" >&2
        "$CS_BUILD/cryptoshim" stats "$1" >&2 || true
        return 1
    fi
}

# each_group VER SERVER_SHIM CLIENT_SHIM: a handshake per group on OpenSSL
# VER (X25519; X25519MLKEM768 from 3.5 on), the shimmed sides' calls.
each_group() {
    local ver=$1 srv=$2 cli=$3 bin group groups=X25519
    bin=$(openssl_of "$ver") || { ossl_absent "$ver"; return 0; }
    [ "$ver" = 30 ] || groups="X25519 X25519MLKEM768"
    env -u LD_PRELOAD "$bin" genpkey -algorithm ED25519 -out ed.key 2>/dev/null
    env -u LD_PRELOAD "$bin" req -x509 -new -key ed.key -out ed.pem -subj /CN=localhost -days 2 \
        2>/dev/null
    for group in $groups; do
        rm -f srv.st cli.st
        handshake "$bin" "$group" "$srv" "$cli"
        if [ "$srv" = yes ]; then
            need srv.st x25519_keygen 1
            need srv.st x25519_derive 1
            need srv.st ed25519_sign 1
        fi
        if [ "$cli" = yes ]; then
            need cli.st x25519_keygen 1
            need cli.st x25519_derive 1
            need cli.st ed25519_verify 1
        fi
    done
}

# served: the forced implementation runs here (else the test skips).
served() {
    rm -f probe.st
    LD_PRELOAD=$SHIMLIB CRYPTOSHIM_STATS=$PWD/probe.st CRYPTOSHIM_KERNELS=$C25519_KERNELS \
        openssl genpkey -algorithm X25519 >/dev/null 2>&1
    [ "$(calls probe.st x25519_keygen)" -ge 1 ] || skip "no curve implementation $C25519_KERNELS here"
}

@test "OpenSSL 3.0: X25519 + Ed25519 certificate, shim in server and client, calls counted" {
    served
    each_group 30 yes yes
}
@test "OpenSSL 3.0: shimmed server against stock client and back" {
    served
    each_group 30 yes no
    each_group 30 no yes
}
@test "OpenSSL 3.5: X25519 and X25519MLKEM768 + Ed25519 certificate, shim in server and client" {
    served
    each_group 35 yes yes
}
@test "OpenSSL 3.5: shimmed server against stock client and back" {
    served
    each_group 35 yes no
    each_group 35 no yes
}
@test "OpenSSL 3.6: X25519 and X25519MLKEM768 + Ed25519 certificate, both sides and mixed" {
    served
    each_group 36 yes yes
    each_group 36 yes no
    each_group 36 no yes
}
@test "OpenSSL 4.0: X25519 and X25519MLKEM768 + Ed25519 certificate, both sides and mixed" {
    served
    each_group 40 yes yes
    each_group 40 yes no
    each_group 40 no yes
}

# x509 VER: a certificate chain signed with Ed25519 (CA, then a leaf with
# its own Ed25519 key) made by stock, verified by `openssl verify` with the
# shim: "OK", and the CA's signature on the leaf checked on our kernel.
x509() {
    local ver=$1 bin
    bin=$(openssl_of "$ver") || { ossl_absent "$ver"; return 0; }
    local o=(env -u LD_PRELOAD "$bin")
    "${o[@]}" genpkey -algorithm ED25519 -out ca.key 2>/dev/null
    "${o[@]}" req -x509 -new -key ca.key -out ca.pem -subj /CN=ca -days 2 2>/dev/null
    "${o[@]}" genpkey -algorithm ED25519 -out leaf.key 2>/dev/null
    "${o[@]}" req -new -key leaf.key -out leaf.csr -subj /CN=leaf 2>/dev/null
    "${o[@]}" x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem \
        -days 2 2>/dev/null
    rm -f v.st
    run env $(shim_env yes "$PWD/v.st" "$C25519_KERNELS") "$bin" verify -CAfile ca.pem leaf.pem
    [ "$status" -eq 0 ] && [[ "$output" == *": OK"* ]] || {
        echo "OpenSSL $ver: $output" >&2
        return 1
    }
    need v.st ed25519_verify 1
    # a leaf whose signature was altered is refused, as by stock
    sed '2s/A/B/' leaf.pem >bad.pem
    local want got
    want=$("${o[@]}" verify -CAfile ca.pem bad.pem 2>&1 | grep -c OK || true)
    got=$(env $(shim_env yes "$PWD/v.st" "$C25519_KERNELS") "$bin" verify -CAfile ca.pem bad.pem 2>&1 | grep -c OK || true)
    [ "$want" = "$got" ] || { echo "OpenSSL $ver: altered leaf: stock $want, shim $got" >&2; return 1; }
}

@test "X.509: an Ed25519 chain verified with the shim on 3.0, 3.5, 3.6 and 4.0 (signature checked on our kernel)" {
    served
    local ver
    for ver in 30 35 36 40; do
        x509 "$ver"
    done
}
