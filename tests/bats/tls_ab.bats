#!/usr/bin/env bats
# The A/B harness on TLS: `cryptoshim ab tls` (openssl s_server) and
# `cryptoshim ab nginx`, a few handshakes each, outputs complete and every
# connection measured on the wire. Needs root for tcpdump. About 20 s.

load "helpers/common"
load "helpers/ab"

setup() {
    ab_setup "tcpdump on loopback needs root" tcpdump gnuplot
}

@test "ab tls: RSA-3072 certificate, TLS 1.3, 20 handshakes per side" {
    ab_run "$OUT" tls --cert rsa3072 -n 20 --block 5
    ab_check "$OUT" 20
    # B really ran with the shim: its calls are listed in the report.
    grep -q 'shim calls in B (operation kernel bits calls): mod_exp' "$OUT/report.md"
}

@test "ab tls: TLS 1.2 DHE with the portable kernel in B and the haswell preset" {
    ab_run "$OUT" tls --cert rsa2048 --tls 1.2 --ciphers DHE-RSA-AES128-GCM-SHA256 \
        -n 10 --block 5 --kernels portable --cpu haswell
    ab_check "$OUT" 10
    grep -q 'OPENSSL_ia32cap=~0x0:~0x80000 CRYPTOSHIM_CPU=-adx' "$OUT/report.md"
    grep -Eq 'shim calls in B.*portable' "$OUT/report.md"
}

@test "ab tls: TLS 1.3 ffdhe3072 key exchange" {
    ab_run "$OUT" tls --cert rsa2048 --groups ffdhe3072 -n 10 --block 5
    ab_check "$OUT" 10
}

@test "ab nginx: RSA-3072 certificate, 20 handshakes per side" {
    [ -x /usr/sbin/nginx ] || skip "nginx not installed"
    ab_run "$OUT" nginx --cert rsa3072 -n 20 --block 10
    ab_check "$OUT" 20
    grep -q 'shim calls in B (operation kernel bits calls): mod_exp' "$OUT/report.md"
}

@test "statistics: percentiles, median, bootstrap interval (single and block resampling) and verdict" {
    run /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import abstats as s
v = list(range(1, 101))
assert s.percentile(v, 90) == 90 and s.percentile(v, 99) == 99 and s.percentile(v, 50) == 50
assert s.median([3, 1, 2]) == 2 and s.median([4, 1, 3, 2]) == 2.5
r, lo, hi = s.bootstrap_ratio(v, [x * 2 for x in v])
assert abs(r - 2) < 1e-9 and lo < 2 < hi and lo > 1, (r, lo, hi)
assert s.verdict(lo, hi) == "slower"
r, lo, hi = s.bootstrap_ratio(v, [x / 2 for x in v])
assert s.verdict(lo, hi) == "faster"
r, lo, hi = s.bootstrap_ratio(v, list(reversed(v)))
assert s.verdict(lo, hi) == "no difference" and lo <= 1 <= hi
# the O(1) resampled median has the brute-force bootstrap distribution
import random
rng = random.Random(5)
w = sorted(rng.gauss(100, 10) for _ in range(41))
bf = sorted(s.median(rng.choices(w, k=len(w))) for _ in range(4000))
fast = sorted(s.resampled_median(w, rng) for _ in range(4000))
assert all(abs(bf[int(q * 3999)] - fast[int(q * 3999)]) < 1.0 for q in (0.05, 0.5, 0.95))
# blocks sharing a level (drift, other load): resampling whole blocks widens
# the interval on both sides
rng.seed(3)
def side():
    vals, blocks = [], []
    for k in range(20):
        level = rng.choice([1.0, 1.0, 1.0, 3.0])
        vals += [level * (1000 + rng.random() * 50) for _ in range(10)]
        blocks += [k] * 10
    return vals, blocks
(a, ba), (b, bb) = side(), side()
_, lo1, hi1 = s.bootstrap_ratio(a, b)
_, lo2, hi2 = s.bootstrap_ratio(a, b, blocks=(ba, bb))
assert lo2 < lo1 and hi2 > hi1 and lo2 <= 1 <= hi2, (lo1, hi1, lo2, hi2)
rows = [("A", 0, 0, "client", 1.0), ("B", 1, 0, "client", 2.0), ("A", None, 0, "server", 1.0)]
assert s.blocks_of(rows) == {"client": ([0], [1]), "server": None}
print("ok")' "$CS_ROOT/ab"
    echo "$output"
    [ "$output" = "ok" ]
}

@test "ab: bad arguments exit 2 without starting anything" {
    run "$CLI" ab tls --cert rsa1 -n 4
    [ "$status" -eq 2 ]
    run "$CLI" ab bogus
    [ "$status" -eq 2 ]
}

@test "pcap analysis: server latency per connection from a capture" {
    # The capture kept by the harness parses on its own too.
    ab_run "$OUT" tls --cert rsa2048 -n 4 --block 2
    local ports
    ports=$(sed -n 's/^- server ports: A \([0-9]*\), B \([0-9]*\)$/\1 \2/p' "$OUT/report.md")
    [ -n "$ports" ]
    run /usr/bin/python3 "$CS_ROOT/ab/pcap_latency.py" tls "$OUT/capture.pcap" $ports
    echo "$output"
    [ "$status" -eq 0 ]
    # a warm-up connection and 4 measured ones per side, every one with a
    # latency between 1 us and 5 s
    [ "$(echo "$output" | wc -l)" -eq 10 ]
    [ "$(echo "$output" | awk '$3 != "-" && $3 > 1 && $3 < 5e6' | wc -l)" -eq 10 ]
}
