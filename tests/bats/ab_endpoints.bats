#!/usr/bin/env bats
# `cryptoshim ab tls|ssh --a HOST:PORT --b HOST:PORT` against services the
# test starts itself as "the user's services" (the harness starts none):
# openssl s_server, nginx and sshd, stock on one loopback port and with the
# shim on another. Checks the report (both metrics, every handshake paired on
# the wire, which side has the shim), the TLS options (1.2, groups, SNI,
# verification, client certificate), the SSH KEX and host key choice, and
# the fallback to client latency when the capture cannot start. Timing never
# decides: a verdict of either sign passes. Needs root (tcpdump, sshd).
# About 40 s.

load "helpers/common"
load "helpers/ab"

setup_file() {
    ab_setup_file srv 3072
}

setup() {
    ab_setup "tcpdump and sshd need root" tcpdump gnuplot
}

teardown() {
    ab_stop stock shim stock2 nginx-a nginx-b sshd-a sshd-b
}

# s_server_pair B_NAME yes|no: the file's RSA-3072 s_server as "stock" on
# port PA and as B_NAME (with the shim or not) on port PB.
s_server_pair() {
    PA=$(free_port) PB=$(free_port)
    ab_s_server stock "$PA" "$D/srv.crt" "$D/srv.key" no
    ab_s_server "$1" "$PB" "$D/srv.crt" "$D/srv.key" "$2"
}

@test "ab tls --a --b: stock s_server A, shimmed s_server B, every handshake on the wire" {
    local pa pb
    s_server_pair shim yes
    pa=$PA pb=$PB
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "localhost:$pb" -n 20 --block 5
    ab_check "$OUT" 20
    grep -q "^- running endpoints (the harness started no server): A 127.0.0.1:$pa" "$OUT/report.md"
    grep -Eq "^- A's server: openssl pid [0-9]+ without the shim" "$OUT/report.md"
    grep -Eq "^- B's server: openssl pid [0-9]+ with libcryptoshim.so loaded" "$OUT/report.md"
    grep -q '^- capture: tcpdump on lo, the interface routing to both targets' "$OUT/report.md"
    grep -q '^- negotiated with B: TLSv1.3 .*group x25519' "$OUT/report.md"
    grep -q '^\*\*Verdict\*\* (server latency)' "$OUT/report.md"
    # B's server really computed through the shim; nothing of the run is left
    [ "$(stats_sum "$D/shim.stats" '!libcrypto')" -gt 0 ]
    [ -z "$(ab_left "$OUT")" ]
    daemon_alive stock && daemon_alive shim
}

@test "ab tls --a --b: TLS 1.2, P-256, SNI, chain verified, client certificate" {
    local pa pb d=$BATS_TEST_TMPDIR
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=ab-ca -keyout "$d/ca.key" \
        -out "$d/ca.crt" -addext basicConstraints=critical,CA:TRUE 2>/dev/null
    openssl req -new -newkey rsa:2048 -nodes -subj /CN=www.example.test -keyout "$d/leaf.key" \
        -out "$d/leaf.csr" 2>/dev/null
    printf 'subjectAltName=DNS:www.example.test\n' >"$d/leaf.ext"
    openssl x509 -req -in "$d/leaf.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -days 2 \
        -extfile "$d/leaf.ext" -out "$d/leaf.crt" 2>/dev/null
    make_rsa_cert "$d" client 2048
    pa=$(free_port) pb=$(free_port)
    # Both demand a client certificate (-Verify) trusted through the client's own.
    ab_s_server stock "$pa" "$d/leaf.crt" "$d/leaf.key" no -Verify 1 -CAfile "$d/client.crt"
    ab_s_server shim "$pb" "$d/leaf.crt" "$d/leaf.key" yes -Verify 1 -CAfile "$d/client.crt"
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 6 --block 3 --tls 1.2 \
        --groups P-256 --ciphers ECDHE-RSA-AES128-GCM-SHA256 --sni www.example.test \
        --cafile "$d/ca.crt" --client-cert "$d/client.crt" --client-key "$d/client.key"
    ab_check "$OUT" 6
    grep -q '^- negotiated with A: TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256, group secp256r1, .*chain verified' \
        "$OUT/report.md"
    # without the client certificate the servers refuse: one line, status 2
    run "$CLI" ab tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 4 --tls 1.2 \
        --sni www.example.test --cafile "$d/ca.crt" --out "$OUT.2"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "cryptoshim ab: TLS handshake with A (127.0.0.1:$pa) failed: "* ]]
}

@test "ab tls --a --b: stock and shimmed nginx" {
    [ -x /usr/sbin/nginx ] || skip "nginx not installed"
    local pa pb
    pa=$(free_port) pb=$(free_port)
    ab_nginx nginx-a "$pa" "$D/srv.crt" "$D/srv.key" no
    ab_nginx nginx-b "$pb" "$D/srv.crt" "$D/srv.key" yes
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 20 --block 10 --sni localhost
    ab_check "$OUT" 20
    grep -Eq "^- B's server: nginx pid [0-9]+ with libcryptoshim.so loaded" "$OUT/report.md"
    [ "$(stats_sum "$D/nginx-b.stats" '!libcrypto')" -gt 0 ]
}

@test "ab ssh --a --b: stock and shimmed sshd, key exchange only (no login), group16 and gex" {
    local pa pb
    pa=$(free_port) pb=$(free_port)
    ab_sshd sshd-a "$pa" no
    ab_sshd sshd-b "$pb" yes
    ab_run "$OUT" ssh --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 10 --block 5 --kex group16 \
        --hostkey-alg rsa-sha2-256
    ab_check "$OUT" 10
    grep -q '^- negotiated with B: SSH-2.0-OpenSSH.*diffie-hellman-group16-sha512 rsa-sha2-256' \
        "$OUT/report.md"
    grep -q 'connect to the server.s KEX reply (no login)' "$OUT/report.md"
    grep -Eq "^- B's server: sshd pid [0-9]+ with libcryptoshim.so loaded" "$OUT/report.md"
    [ "$(stats_sum "$D/sshd-b.stats" '!libcrypto')" -gt 0 ]
    ab_run "$OUT.gex" ssh --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 4 --block 2 --kex gex
    ab_check "$OUT.gex" 4
    ab_run "$OUT.ec" ssh --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 4 --block 2 \
        --kex ecdh-sha2-nistp256
    ab_check "$OUT.ec" 4
}

@test "ab tls --a --b: A/A, two stock instances of the same server and key" {
    s_server_pair stock2 no
    ab_run "$OUT" tls --a "127.0.0.1:$PA" --b "127.0.0.1:$PB" -n 20 --block 5
    ab_check "$OUT" 20
    grep -Eq "^- B's server: openssl pid [0-9]+ without the shim" "$OUT/report.md"
}

@test "ab tls --a --b: capture that cannot start falls back to client latency and says so" {
    local pa pb
    s_server_pair shim yes
    pa=$PA pb=$PB
    run "$CLI" ab tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 4 --block 2 \
        --tcpdump /nonexistent/tcpdump --out "$OUT"
    echo "$output"
    [ "$status" -le 1 ]
    [[ "$output" == *"cryptoshim ab: no capture (tcpdump is not installed (Debian package tcpdump)): client-side latency only"* ]]
    grep -q '^\*\*Verdict\*\* (client latency)' "$OUT/report.md"
    grep -q '^- no capture (tcpdump is not installed' "$OUT/report.md"
    [ "$(grep -c ',client,' "$OUT/samples.csv")" -eq 8 ]
    [ "$(grep -c ',server,' "$OUT/samples.csv")" -eq 0 ]
    # tcpdump refusing to start (no such interface): the same fallback, its reason named
    run "$CLI" ab tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" -n 4 --block 2 \
        --interface cs-no-such-if0 --out "$OUT.2"
    echo "$output"
    [ "$status" -le 1 ]
    [[ "$output" == *"cryptoshim ab: no capture (tcpdump did not start: "*"client-side latency only"* ]]
    [ -z "$(ab_left "$OUT.2")" ]
    # not root: the same fallback (the output directory is the unprivileged user's)
    local out3
    out3=$(mktemp -d /tmp/cs-ab-nobody.XXXXXX)
    chown 65534:65534 "$out3"
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$CLI" ab tls --a "127.0.0.1:$pa" \
        --b "127.0.0.1:$pb" -n 4 --block 2 --out "$out3/ab"
    echo "$output"
    [ "$status" -le 1 ]
    [[ "$output" == *"cryptoshim ab: no capture (not root (tcpdump needs root to capture)): client-side latency only"* ]]
    grep -q '^\*\*Verdict\*\* (client latency)' "$out3/ab/report.md"
    rm -rf "$out3"
}

@test "ab tls --a --b: OpenSSL 3.5 servers, X25519MLKEM768, the group named in the report and on the wire" {
    local o=$CS_BUILD/openssl35/bin/openssl pa pb
    [ -x "$o" ] || skip "no $o (make openssl35)"
    pa=$(free_port) pb=$(free_port)
    start_daemon stock "$D/k35a.log" "$o" s_server -accept "127.0.0.1:$pa" -cert "$D/srv.crt" \
        -key "$D/srv.key" -www -quiet -num_tickets 0 -groups X25519MLKEM768:x25519
    start_daemon shim "$D/k35b.log" env LD_PRELOAD="$SHIM" CRYPTOSHIM_STATS="$D/k35.stats" \
        "$o" s_server -accept "127.0.0.1:$pb" -cert "$D/srv.crt" -key "$D/srv.key" -www -quiet \
        -num_tickets 0 -groups X25519MLKEM768:x25519
    wait_port "$pa"
    wait_port "$pb"
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --openssl "$o" \
        --groups X25519MLKEM768 -n 6 --block 3
    ab_check "$OUT" 6
    grep -q '^- negotiated with B: TLSv1.3 .*group X25519MLKEM768' "$OUT/report.md"
    grep -q '^- on the wire, B negotiated: version TLS 1.3 (6); group X25519MLKEM768 (6)' "$OUT/report.md"
    ab_run "$OUT.p" pcap "$OUT/capture.pcap" --a "127.0.0.1:$pa" --b "127.0.0.1:$pb"
    grep -q '^- A negotiated: version TLS 1.3 (6); group X25519MLKEM768 (6)' "$OUT.p/report.md"
}

@test "ab ssh --kex-only: the harness-started sshd pair measured with the endpoints' key-exchange client" {
    ab_run "$OUT" ssh --hostkey 2048 --kex group14 -n 4 --block 2 --kex-only
    ab_check "$OUT" 4
    grep -q '^# cryptoshim A/B: sshd, RSA-2048 host key (rsa-sha2-512), diffie-hellman-group14-sha256, key exchange only (no login)' \
        "$OUT/report.md"
}
