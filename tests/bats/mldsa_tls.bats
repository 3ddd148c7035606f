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

# with SHIM STATS: the env(1) prefix running OpenSSL 3.5 with the shim
# preloaded (yes, counting into STATS) or alone (no).
with() {
    if [ "$1" = yes ]; then
        echo "LD_PRELOAD=$SHIMLIB CRYPTOSHIM_STATS=$2"
    else
        echo "-u LD_PRELOAD -u CRYPTOSHIM_STATS"
    fi
}

# listening PORT: whether a TCP socket listens on PORT.
listening() {
    ss -Hltn "sport = :$1" | grep -q .
}

# handshake PS SERVER_SHIM CLIENT_SHIM: one TLS 1.3 handshake on loopback;
# the client verifies the chain against the CA and the server name.
handshake() {
    local ps=$1 srv=$2 cli=$3 dir=$BATS_FILE_TMPDIR port pid rc
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        timeout 20 env $(with "$srv" srv.st) "$OSSL35" s_server -accept 127.0.0.1:$port \
            -naccept 1 -tls1_3 -quiet -cert "$dir/leaf$ps.pem" -key "$dir/leaf$ps.key" \
            >srv.out 2>&1 </dev/null &
        pid=$!
        # Wait until it listens (-quiet prints nothing; a probe connection
        # would use up -naccept 1).
        for _ in $(seq 100); do
            listening $port && break
            kill -0 $pid 2>/dev/null || break
            sleep 0.1
        done
        if listening $port; then
            rc=0
            echo Q | timeout 20 env $(with "$cli" cli.st) "$OSSL35" s_client \
                -connect 127.0.0.1:$port -tls1_3 -CAfile "$dir/ca$ps.pem" \
                -verify_return_error -verify_hostname localhost -servername localhost \
                >cli.out 2>&1 || rc=$?
            wait $pid || true
            cat cli.out srv.out
            [ $rc -eq 0 ]
            grep -q 'Verify return code: 0 (ok)' cli.out
            grep -q "Peer signature type: mldsa$ps" cli.out
            return 0
        fi
        kill $pid 2>/dev/null || true
        wait $pid 2>/dev/null || true
    done
    echo "server did not start" >&2
    cat srv.out >&2
    return 1
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
