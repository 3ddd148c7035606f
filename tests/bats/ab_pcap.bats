#!/usr/bin/env bats
# `cryptoshim ab pcap FILE... --a HOST:PORT --b HOST:PORT` on captures taken
# by the test as an operator takes them (tcpdump -w on loopback) during a
# known number of handshakes of each kind, on the same capture as pcapng, on
# truncated and corrupt copies, and on generated captures (known server
# times, 10,000 handshakes, a retransmission, a lost segment). Counts must
# be exact; timing never decides. Live parts need root (tcpdump, sshd).
# About 40 s.

load "helpers/common"
load "helpers/ab"

AB=

setup_file() {
    ab_setup_file srv 2048
}

setup() {
    ab_setup "" gnuplot
    AB=$CS_ROOT/ab
}

teardown() {
    ab_stop tls-a tls-b sshd-a sshd-b dump
}

# live_needs: skips unless root with tcpdump.
live_needs() {
    [ "$(id -u)" -eq 0 ] || skip "tcpdump and sshd need root"
    need_cmd tcpdump
}

# tls_hs PORT N: N full handshakes by ab-tls-client against 127.0.0.1:PORT.
tls_hs() {
    timeout 60 "$CS_BUILD/ab-tls-client" 127.0.0.1 "$1" "$2" >/dev/null
}

# ssh_kex PORT N: N SSH key exchanges (no login) against 127.0.0.1:PORT.
ssh_kex() {
    timeout 60 /usr/bin/python3 "$AB/sshkex.py" 127.0.0.1 "$1" diffie-hellman-group14-sha256 \
        rsa-sha2-512 "$2" >/dev/null
}

# capture_known: TLS servers on TA/TB, sshd on SA/SB, one capture (CAP) of
# 7 + 5 TLS handshakes, one TLS 1.2 handshake and its resumption on TA,
# 4 + 3 SSH key exchanges.
capture_known() {
    TA=$(free_port) TB=$(free_port) SA=$(free_port) SB=$(free_port)
    CAP=$BATS_TEST_TMPDIR/server.pcap
    ab_s_server tls-a "$TA" "$D/srv.crt" "$D/srv.key" no
    ab_s_server tls-b "$TB" "$D/srv.crt" "$D/srv.key" yes
    ab_sshd sshd-a "$SA" no
    ab_sshd sshd-b "$SB" yes
    ab_tcpdump dump "$CAP" "$TA" "$TB" "$SA" "$SB"
    tls_hs "$TA" 7
    tls_hs "$TB" 5
    echo | timeout 20 openssl s_client -connect "127.0.0.1:$TA" -tls1_2 \
        -sess_out "$BATS_TEST_TMPDIR/sess" >/dev/null 2>&1
    echo | timeout 20 openssl s_client -connect "127.0.0.1:$TA" -tls1_2 \
        -sess_in "$BATS_TEST_TMPDIR/sess" >"$BATS_TEST_TMPDIR/resumed.log" 2>&1
    grep -q '^Reused, TLSv1.2' "$BATS_TEST_TMPDIR/resumed.log"
    ssh_kex "$SA" 4
    ssh_kex "$SB" 3
    ab_tcpdump_stop dump
}

@test "ab pcap: a server-side capture of known handshakes, each kind counted exactly" {
    live_needs
    capture_known
    ab_run "$OUT" pcap "$CAP" --a "127.0.0.1:$TA" --b "*:$TB"
    # 7 + the TLS 1.2 full handshake on A, 5 on B; the resumption counted apart
    ab_check_pcap "$OUT" 8 5
    grep -q "^- A 127.0.0.1:$TA: 8 TLS handshakes; not used: resumed 1\$" "$OUT/report.md"
    grep -q "^- B \*:$TB: 5 TLS handshakes; not used: none\$" "$OUT/report.md"
    grep -q '^- A negotiated: version TLS 1.3 (7), TLS 1.2 (1); group x25519 (8)' "$OUT/report.md"
    # the 7 SSH connections are to neither endpoint
    grep -q '^- connections to neither endpoint (other port or address): 7$' "$OUT/report.md"
    ab_run "$OUT.ssh" pcap "$CAP" --a "127.0.0.1:$SA" --b "127.0.0.1:$SB"
    ab_check_pcap "$OUT.ssh" 4 3
    grep -q '^- A negotiated: kex diffie-hellman-group14-sha256 (4); host key rsa-sha2-512 (4)' \
        "$OUT.ssh/report.md"
    # --kind tls on the SSH endpoints: every connection is the other protocol
    run "$CLI" ab pcap "$CAP" --a "127.0.0.1:$SA" --b "127.0.0.1:$SB" --kind tls --out "$OUT.k"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"(connections not used: other protocol 4)"* ]]
}

@test "ab pcap: HelloRetryRequest handshakes are measured from the second ClientHello" {
    live_needs
    TA=$(free_port) TB=$(free_port)
    CAP=$BATS_TEST_TMPDIR/hrr.pcap
    # the servers take P-384 only; the client's key share is for x25519 first
    ab_s_server tls-a "$TA" "$D/srv.crt" "$D/srv.key" no -groups P-384
    ab_s_server tls-b "$TB" "$D/srv.crt" "$D/srv.key" yes -groups P-384
    ab_tcpdump dump "$CAP" "$TA" "$TB"
    timeout 60 "$CS_BUILD/ab-tls-client" 127.0.0.1 "$TA" 3 --groups x25519:P-384 >/dev/null
    timeout 60 "$CS_BUILD/ab-tls-client" 127.0.0.1 "$TB" 4 --groups x25519:P-384 >/dev/null
    ab_tcpdump_stop dump
    ab_run "$OUT" pcap "$CAP" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB"
    ab_check_pcap "$OUT" 3 4
    grep -q '^- B negotiated: version TLS 1.3 (4); group secp384r1 (4)' "$OUT/report.md"
    run /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import handshakes
a = handshakes.analyse(open(sys.argv[2], "rb").read(), [("A", None, int(sys.argv[3]))])
print(" ".join(h.info["hello retry"] for h in a.handshakes))' "$AB" "$CAP" "$TA"
    [ "$output" = "yes yes yes" ]
}

@test "ab pcap: the same capture as pcapng gives the same handshakes and times" {
    live_needs
    capture_known
    /usr/bin/python3 "$AB/pcap_synth.py" topcapng "$CAP" "$CAP.pcapng"
    ab_run "$OUT" pcap "$CAP" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB"
    ab_run "$OUT.ng" pcap "$CAP.pcapng" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB"
    diff <(ab_server_samples "$OUT" A) <(ab_server_samples "$OUT.ng" A)
    diff <(ab_server_samples "$OUT" B) <(ab_server_samples "$OUT.ng" B)
    # two files at once: every handshake of both
    ab_run "$OUT.2" pcap "$CAP" "$CAP.pcapng" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB"
    ab_check_pcap "$OUT.2" 16 10
}

@test "ab pcap: truncated and corrupt copies get one clear line and status 2" {
    live_needs
    capture_known
    local size f
    /usr/bin/python3 "$AB/pcap_synth.py" topcapng "$CAP" "$CAP.pcapng"
    for f in "$CAP" "$CAP.pcapng"; do
        size=$(stat -c %s "$f")
        head -c $((size - 7)) "$f" >"$f.cut"
        /usr/bin/python3 "$AB/pcap_synth.py" damage "$f" "$f.bad"
        run "$CLI" ab pcap "$f.cut" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB" --out "$OUT"
        echo "$output"
        [ "$status" -eq 2 ]
        [ "${#lines[@]}" -eq 1 ]
        [[ "$output" == "cryptoshim ab: $f.cut: truncated: "* ]]
        run "$CLI" ab pcap "$f.bad" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB" --out "$OUT"
        echo "$output"
        [ "$status" -eq 2 ]
        [ "${#lines[@]}" -eq 1 ]
        [[ "$output" == "cryptoshim ab: $f.bad: corrupt: "* ]]
    done
    head -c 1000 /dev/urandom >"$BATS_TEST_TMPDIR/noise"
    run "$CLI" ab pcap "$BATS_TEST_TMPDIR/noise" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB" --out "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"not a pcap or pcapng file"* ]]
    # an endpoint without a handshake in the capture
    run "$CLI" ab pcap "$CAP" --a "127.0.0.1:$TA" --b "127.0.0.1:1" --out "$OUT"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "cryptoshim ab: no complete TLS or SSH handshake with B (127.0.0.1:1) in "* ]]
}

@test "ab pcap: per-handshake server times equal those of the live run's capture" {
    live_needs
    TA=$(free_port) TB=$(free_port)
    CAP=$BATS_TEST_TMPDIR/server.pcap
    ab_s_server tls-a "$TA" "$D/srv.crt" "$D/srv.key" no
    ab_s_server tls-b "$TB" "$D/srv.crt" "$D/srv.key" yes
    # the operator's capture runs beside the harness's own
    ab_tcpdump dump "$CAP" "$TA" "$TB"
    ab_run "$OUT" tls --a "127.0.0.1:$TA" --b "127.0.0.1:$TB" -n 10 --block 5
    ab_tcpdump_stop dump
    ab_run "$OUT.p" pcap "$CAP" --a "127.0.0.1:$TA" --b "127.0.0.1:$TB"
    # the operator's capture also holds the harness's 2 warm-up handshakes
    # (tcpdump counts no drop: a dropped segment would make its handshake "truncated")
    grep -q "^0 packets dropped by kernel" "$CAP.log"
    ab_check_pcap "$OUT.p" 11 11
    local side
    for side in A B; do
        paste -d' ' <(ab_server_samples "$OUT" "$side") \
            <(ab_server_samples "$OUT.p" "$side" | tail -n 10) |
            awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0.02 * $1) { print "differ: " $0; bad = 1 } }
                 END { exit bad }'
    done
}

@test "ab pcap: a generated capture of 10,000 handshakes, counted exactly, known times" {
    local g=$BATS_TEST_TMPDIR/g.pcap t0 t1
    /usr/bin/python3 "$AB/pcap_synth.py" gen "$g" pcap tls:443:5000 tls:8443:5000
    t0=$(date +%s%N)
    ab_run "$OUT" pcap "$g" --a 10.0.0.1:443 --b 10.0.0.1:8443
    t1=$(date +%s%N)
    echo "# 10,000 handshakes analysed and reported in $(((t1 - t0) / 1000000)) ms" >&3
    ab_check_pcap "$OUT" 5000 5000
    # handshake i's server time is 800 + i % 97 us (B's start at i = 5000)
    ab_server_samples "$OUT" B | awk '{ w = 800 + (5000 + NR - 1) % 97; d = $1 - w
                                        if (d < -0.5 || d > 0.5) { print NR ": " $1; bad = 1 } }
                                      END { exit bad }'
    # the same endpoint twice, and a TLS endpoint beside an SSH one, are refused
    run "$CLI" ab pcap "$g" --a 10.0.0.1:443 --b '*:443' --out "$OUT.2"
    [ "$status" -eq 2 ]
    [[ "$output" == *"are the same endpoint"* ]]
    /usr/bin/python3 "$AB/pcap_synth.py" gen "$g.2" pcapng tls:443:5 ssh:22:5
    run "$CLI" ab pcap "$g.2" --a 10.0.0.1:443 --b 10.0.0.1:22 --out "$OUT.2"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"A speaks TLS and B SSH"* ]]
}

@test "ab pcap analysis: exact times, a retransmission, a lost segment, other ports, damaged input" {
    run /usr/bin/python3 - "$AB" "$BATS_TEST_TMPDIR/synth.pcapng" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import handshakes, pcap_synth, struct
pk, times = pcap_synth.generate([("tls", 443, 30), ("ssh", 22, 30)])
# connection 3 (TLS): its ClientHello segment captured twice;
# connection 40 (SSH): the server's last reply segment lost
ch = [p for p in pk if len(p[1]) > 200 and p[1][20:22] == struct.pack("!H", 20003)][0]
pk.append((ch[0] + 1e-6, ch[1]))
lost = [p for p in pk if p[1][22:24] == struct.pack("!H", 20040) and len(p[1]) > 100]
pk.remove(lost[-2])
pk.sort(key=lambda p: p[0])
pcap_synth.write_pcapng(sys.argv[2], pk)
data = open(sys.argv[2], "rb").read()
a = handshakes.analyse(data, [("A", None, 443), ("B", None, 22)])
assert len(a.handshakes) == 58, len(a.handshakes)
assert a.unused[("A", "retransmitted")] == 1 and a.unused[("B", "truncated")] == 1, a.unused
want = [t[2] for i, t in enumerate(times) if i not in (3, 40)]
got = [h.seconds for h in a.handshakes]
assert all(abs(g - w) < 1e-6 for g, w in zip(got, want)), max(abs(g - w) for g, w in zip(got, want))
only_a = handshakes.analyse(data, [("A", None, 443)])
assert only_a.unused[(None, "other port")] == 30, only_a.unused
# every prefix of the file and 400 randomly damaged copies: a clean
# CaptureError or a result, never another exception
import pcapread, random
rng = random.Random(7)
cases = [data[:n] for n in range(0, 4000, 37)]
for _ in range(400):
    d = bytearray(data[:rng.randrange(100, 30000)])
    for _ in range(rng.randrange(1, 8)):
        d[rng.randrange(len(d))] = rng.randrange(256)
    cases.append(bytes(d))
for c in cases:
    try:
        handshakes.analyse(c, [("A", None, 443), ("B", None, 22)])
    except pcapread.CaptureError:
        pass
print("ok")
PY
    echo "$output"
    [ "$output" = ok ]
}
