#!/usr/bin/env bats
# TLS 1.3 handshakes with ML-DSA-44/65/87 certificates (a CA and a leaf)
# between s_server and s_client from the OpenSSL 3.5 tree, with the shim in
# the server, the client, both and neither. Loopback only; every process is
# bounded by timeout.

load mldsa_helpers

setup_file() {
    # Each test's setup skips while the shim core is missing (bats cannot
    # skip from setup_file).
    [ -x "$CS_BUILD/cryptoshim" ] || return 0
    mldsa_require
    cd "$BATS_FILE_TMPDIR"
    for ps in 44 65 87; do
        ossl req -x509 -newkey ML-DSA-$ps -nodes -keyout ca$ps.key -out ca$ps.pem \
            -subj "/CN=cryptoshim test CA $ps" -days 2 \
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
        ossl req -new -newkey ML-DSA-$ps -nodes -keyout leaf$ps.key -out leaf$ps.csr \
            -subj /CN=localhost 2>/dev/null
        printf 'subjectAltName=DNS:localhost\n' >ext.cnf
        ossl x509 -req -in leaf$ps.csr -CA ca$ps.pem -CAkey ca$ps.key -out leaf$ps.pem \
            -days 2 -extfile ext.cnf 2>/dev/null
    done
}

setup() {
    mldsa_require
}

# handshake PS SERVER_SHIM CLIENT_SHIM: one TLS 1.3 handshake on loopback
# between OpenSSL 3.5's s_server and s_client, the shim preloaded in the
# sides marked yes; the client verifies the chain against the CA and the
# server name.
handshake() {
    local ps=$1 srv=$2 cli=$3 dir=$BATS_FILE_TMPDIR rc=0
    tls13_handshake 20 "$(shim_env "$srv" srv.st)" "$(shim_env "$cli" cli.st)" "$OSSL35" \
        -cert "$dir/leaf$ps.pem" -key "$dir/leaf$ps.key" -- -CAfile "$dir/ca$ps.pem" \
        -verify_return_error -verify_hostname localhost -servername localhost || rc=$?
    cat cli.out srv.out
    [ $rc -eq 0 ]
    grep -q 'Verify return code: 0 (ok)' cli.out
    grep -q "Peer signature type: mldsa$ps" cli.out
}

# check PS SERVER_SHIM CLIENT_SHIM: a handshake, and our kernels signed in
# a shimmed server (CertificateVerify) and verified in a shimmed client
# (leaf certificate and CertificateVerify).
check() {
    local ps=$1 srv=$2 cli=$3
    cd "$BATS_TEST_TMPDIR"
    handshake "$ps" "$srv" "$cli"
    if [ "$srv" = yes ]; then [ "$(calls srv.st mldsa_sign $ps)" -ge 1 ]; fi
    if [ "$cli" = yes ]; then [ "$(calls cli.st mldsa_verify $ps)" -ge 2 ]; fi
}

@test "ML-DSA-44: neither" { check 44 no no; }
@test "ML-DSA-44: server" { check 44 yes no; }
@test "ML-DSA-44: client" { check 44 no yes; }
@test "ML-DSA-44: both" { check 44 yes yes; }
@test "ML-DSA-65: neither" { check 65 no no; }
@test "ML-DSA-65: server" { check 65 yes no; }
@test "ML-DSA-65: client" { check 65 no yes; }
@test "ML-DSA-65: both" { check 65 yes yes; }
@test "ML-DSA-87: neither" { check 87 no no; }
@test "ML-DSA-87: server" { check 87 yes no; }
@test "ML-DSA-87: client" { check 87 no yes; }
@test "ML-DSA-87: both" { check 87 yes yes; }
