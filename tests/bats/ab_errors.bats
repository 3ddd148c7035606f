#!/usr/bin/env bats
# Bad input to `cryptoshim ab --a/--b` and `ab pcap`: one clear line on
# stderr, exit status 2, nothing the run started left running (OUT/pids).
# Unreachable target, a host that does not resolve, a target of the other
# protocol or of none, a handshake failure, an SSH server without the KEX or
# host key asked for, the same endpoint twice, a missing --b. Needs root
# (sshd). About 15 s.

load "helpers/common"
load "helpers/ab"

bats_require_minimum_version 1.5.0

setup_file() {
    ab_setup_file srv 2048
}

setup() {
    ab_setup "sshd needs root"
}

teardown() {
    ab_stop tls-a tls-b sshd-a sshd-b plain
}

@test "ab --a/--b: unreachable, unresolvable, same endpoint twice, --a alone" {
    local p
    p=$(free_port)
    ab_s_server tls-a "$p" "$D/srv.crt" "$D/srv.key" no
    ab_fails "A (127.0.0.1:1) is unreachable: connection refused" tls --a 127.0.0.1:1 --b "127.0.0.1:$p"
    ab_fails "B (127.0.0.1:1) is unreachable: connection refused" ssh --a "127.0.0.1:$p" --b 127.0.0.1:1
    ab_fails "A cs-no-such-host.invalid:443: the host name does not resolve*" \
        tls --a cs-no-such-host.invalid:443 --b "127.0.0.1:$p"
    ab_fails "--a 127.0.0.1:$p and --b localhost:$p are the same endpoint*" \
        tls --a "127.0.0.1:$p" --b "localhost:$p"
    ab_fails "--a and --b go together*" tls --a "127.0.0.1:$p"
    ab_fails "*not HOST:PORT*" tls --a "127.0.0.1" --b "127.0.0.1:$p"
}

@test "ab --a/--b: a target of the other protocol, or of none" {
    local t s plain
    t=$(free_port) s=$(free_port) plain=$(free_port)
    ab_s_server tls-a "$t" "$D/srv.crt" "$D/srv.key" no
    ab_sshd sshd-a "$s" no
    # a TCP server that answers neither TLS nor SSH (it echoes a line)
    start_daemon plain "$BATS_TEST_TMPDIR/plain.log" /usr/bin/python3 -c 'import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(__import__("sys").argv[1]))); s.listen(8)
while True:
    c, _ = s.accept(); c.settimeout(2)
    try:
        c.recv(4096); c.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
    except OSError:
        pass
    c.close()' "$plain"
    wait_port "$plain"
    ab_fails "A (127.0.0.1:$s) is an SSH server, not TLS*" tls --a "127.0.0.1:$s" --b "127.0.0.1:$t"
    ab_fails "SSH key exchange with B (127.0.0.1:$t) failed: *not an SSH server)" \
        ssh --a "127.0.0.1:$s" --b "127.0.0.1:$t"
    ab_fails "TLS handshake with A (127.0.0.1:$plain) failed: *" tls --a "127.0.0.1:$plain" --b "127.0.0.1:$t"
    ab_fails "SSH key exchange with A (127.0.0.1:$plain) failed: *" ssh --a "127.0.0.1:$plain" --b "127.0.0.1:$s"
}

@test "ab --a/--b: handshake failures (group, verification, KEX, host key)" {
    local a b sa sb
    a=$(free_port) b=$(free_port) sa=$(free_port) sb=$(free_port)
    ab_s_server tls-a "$a" "$D/srv.crt" "$D/srv.key" no -groups X25519
    ab_s_server tls-b "$b" "$D/srv.crt" "$D/srv.key" yes -groups X25519
    ab_fails "TLS handshake with A (127.0.0.1:$a) failed: *" tls --a "127.0.0.1:$a" --b "127.0.0.1:$b" \
        --groups P-384
    ab_fails "TLS handshake with A (127.0.0.1:$a) failed: certificate verification failed: self-signed certificate*" \
        tls --a "127.0.0.1:$a" --b "127.0.0.1:$b" --verify --sni localhost
    ab_sshd sshd-a "$sa" no
    ab_sshd sshd-b "$sb" yes
    ab_fails "SSH key exchange with A (127.0.0.1:$sa) failed: the server does not offer key exchange sntrup761x25519-sha512@openssh.com*" \
        ssh --a "127.0.0.1:$sa" --b "127.0.0.1:$sb" --kex sntrup761x25519-sha512@openssh.com
    ab_fails "SSH key exchange with A (127.0.0.1:$sa) failed: the server has no ssh-ed25519 host key*" \
        ssh --a "127.0.0.1:$sa" --b "127.0.0.1:$sb" --hostkey-alg ssh-ed25519
}

@test "ab pcap: missing file, no file, no handshake for an endpoint" {
    ab_fails "$BATS_TEST_TMPDIR/none.pcap: no such file or directory" \
        pcap "$BATS_TEST_TMPDIR/none.pcap" --a :443 --b :8443
    ab_fails "ab pcap needs at least one capture file" pcap --a :443 --b :8443
    ab_fails "ab pcap needs --a HOST:PORT and --b HOST:PORT*" pcap "$BATS_TEST_TMPDIR/none.pcap"
    /usr/bin/python3 "$CS_ROOT/ab/pcap_synth.py" gen "$BATS_TEST_TMPDIR/g.pcap" pcap tls:443:4
    ab_fails "no complete TLS or SSH handshake with B (*:8443) in $BATS_TEST_TMPDIR/g.pcap*" \
        pcap "$BATS_TEST_TMPDIR/g.pcap" --a '*:443' --b '*:8443'
}

@test "ab --a/--b: SIGTERM mid-run stops its tcpdump; one line, status 143" {
    local a b i pid
    a=$(free_port) b=$(free_port)
    ab_s_server tls-a "$a" "$D/srv.crt" "$D/srv.key" no
    ab_s_server tls-b "$b" "$D/srv.crt" "$D/srv.key" yes
    "$CLI" ab tls --a "127.0.0.1:$a" --b "127.0.0.1:$b" -n 5000 --out "$OUT" \
        >"$BATS_TEST_TMPDIR/run.log" 2>&1 3>&- &
    pid=$!
    for ((i = 0; i < 200; i++)); do
        grep -q tcpdump "$OUT/pids" 2>/dev/null && break
        sleep 0.05
    done
    grep -q tcpdump "$OUT/pids"
    sleep 0.5
    kill -TERM "$pid"
    wait "$pid" || status=$?
    cat "$BATS_TEST_TMPDIR/run.log"
    [ "$status" -eq 143 ]
    grep -q '^cryptoshim ab: stopped by SIGTERM' "$BATS_TEST_TMPDIR/run.log"
    [ -z "$(ab_left "$OUT")" ]
    # the user's services are not the harness's to stop
    daemon_alive tls-a && daemon_alive tls-b
}
