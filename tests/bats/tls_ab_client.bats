#!/usr/bin/env bats
# The A/B harness with the shim in the client that verifies (issue 17):
# `cryptoshim ab tls --verify --preload client|both` against OpenSSL 3.5's
# s_server with an ML-DSA CA and leaf, a few handshakes each. Checks that B's
# client verified through the shim (two ML-DSA verifies a handshake: the
# leaf's signature by the CA and the CertificateVerify) and A's did not, and
# that a chain the client cannot verify fails the run. Needs root for
# tcpdump and `make openssl35`. About 15 s.

load "helpers/common"
load "helpers/ab"

OSSL35=

setup() {
    ab_setup "tcpdump on loopback needs root" tcpdump gnuplot
    OSSL35=$CS_BUILD/openssl35/bin/openssl
    [ -x "$OSSL35" ] || { echo "missing $OSSL35 (make openssl35)" >&2; return 1; }
    OUT=$BATS_TEST_TMPDIR/ab
}

teardown() {
    stop_daemon s_server
}

# calls_in REPORT WHO OP BITS: the count of OP at BITS on the report's line
# "shim calls in WHO (...): OP KERNEL BITS N; ..." (0 when none is counted).
calls_in() {
    sed -n "s/^- shim calls in $2 (operation kernel bits calls): //p" "$1" | tr ';' '\n' |
        awk -v op="$3" -v bits="$4" '$1 == op && $2 != "libcrypto" && $3 == bits { n += $4 }
                                     END { print n + 0 }'
}

@test "ab tls --verify --preload client: ML-DSA-65 chain, B's client verifies through the shim, A's not" {
    ab_run "$OUT" tls --openssl "$OSSL35" --cert mldsa65 --verify --preload client -n 6 --block 3
    ab_check "$OUT" 6
    grep -q '^- client verifies: SSL_VERIFY_PEER' "$OUT/report.md"
    grep -q '^- negotiated with B: .*server signature id-ml-dsa-65, chain verified' "$OUT/report.md"
    # 7 handshakes (a warm-up and 6) of 2 verifies each, all in B's client
    [ "$(calls_in "$OUT/report.md" "B's client" mldsa_verify 65)" -eq 14 ]
    grep -q "^- shim calls in A's client: none counted (no counter file" "$OUT/report.md"
    [ ! -e "$OUT/a-client.stats" ]
    # both servers stock: no server counters, and the client's latency decides
    [ ! -e "$OUT/b.stats" ]
    run grep -c '^- shim calls in B (' "$OUT/report.md"
    [ "$output" -eq 0 ]
    grep -q '^\*\*Verdict\*\* (client latency)' "$OUT/report.md"
}

@test "ab tls --verify --preload both: ML-DSA-44, B's server signs and B's client verifies" {
    ab_run "$OUT" tls --openssl "$OSSL35" --cert mldsa44 --verify --preload both -n 4 --block 2
    ab_check "$OUT" 4
    [ "$(calls_in "$OUT/report.md" B mldsa_sign 44)" -eq 5 ]
    [ "$(calls_in "$OUT/report.md" "B's client" mldsa_verify 44)" -eq 10 ]
    grep -q "^- shim calls in A's client: none counted" "$OUT/report.md"
}

@test "ab tls --verify --preload client: ML-DSA-87 chain" {
    ab_run "$OUT" tls --openssl "$OSSL35" --cert mldsa87 --verify --preload client -n 4 --block 2
    ab_check "$OUT" 4
    [ "$(calls_in "$OUT/report.md" "B's client" mldsa_verify 87)" -eq 10 ]
}

@test "ab-tls-client --cafile: a chain not from that CA fails every handshake" {
    local d=$BATS_TEST_TMPDIR port
    "$OSSL35" req -x509 -newkey ML-DSA-65 -nodes -days 2 -subj /CN=localhost \
        -keyout "$d/srv.key" -out "$d/srv.crt" 2>/dev/null
    "$OSSL35" req -x509 -newkey ML-DSA-65 -nodes -days 2 -subj /CN=other \
        -keyout "$d/other.key" -out "$d/other.crt" 2>/dev/null
    port=$(free_port)
    start_daemon s_server "$d/s_server.log" timeout 60 "$OSSL35" s_server \
        -accept "127.0.0.1:$port" -cert "$d/srv.crt" -key "$d/srv.key" -www -quiet -num_tickets 0
    wait_port "$port"
    run timeout 60 "$CS_BUILD/openssl35/bin/run" "$CS_BUILD/ab-tls-client" \
        127.0.0.1 "$port" 2 --cafile "$d/other.crt"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"certificate verification failed: self-signed certificate"* ]]
    [[ "$output" == *"2 of 2 handshakes failed"* ]]
    # the same server verified against its own certificate passes
    run timeout 60 "$CS_BUILD/openssl35/bin/run" "$CS_BUILD/ab-tls-client" \
        127.0.0.1 "$port" 2 --cafile "$d/srv.crt"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"chain verified against the CA file"* ]]
}

@test "ab: --verify is refused for ssh, and --preload takes server, client or both" {
    run "$CLI" ab ssh --verify -n 4
    [ "$status" -eq 2 ]
    run "$CLI" ab tls --preload neither -n 4
    [ "$status" -eq 2 ]
}
