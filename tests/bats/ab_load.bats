#!/usr/bin/env bats
# `cryptoshim ab ... --concurrency N | --rate R`: A/B under load (docs/ab.md
# "Under load"). The server CPU accounting against processes whose CPU is
# known; a B that burns several ms more CPU per handshake (an RSA-4096
# s_server against an RSA-2048 one: about 5 ms more per signature) found
# slower by capacity and by CPU per handshake, the one check where timing
# decides, with a margin of 1.5x on a ratio near 4; the report of A/A,
# harness-started nginx (closed and open loop, rate auto) and sshd runs, and
# two running sshd at a fixed rate (structure only: a verdict of either sign
# passes); bad input (unreachable endpoint, PID not readable or not the
# listener, N too large, a plan too long, a target off loopback) refused with
# one line and status 2; no client or server of a run left. About 110 s;
# sshd needs root.

bats_require_minimum_version 1.5.0
load "helpers/common"
load "helpers/ab"

AB_LEFT=load_left # ab_fails

setup_file() {
    ab_setup_file "" 2048 4096
}

setup() {
    ab_setup ""
}

teardown() {
    ab_stop a b a2 other
}

# load_left OUT: every process still running that belongs to the run
# writing OUT (recorded in OUT/pids, or carrying CS_AB_RUN=OUT).
load_left() {
    ab_left "$1"
    grep -lsz "^CS_AB_RUN=$1\$" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | grep -vx "$$" || true
}

# ratio_of OUT ROW COLUMN: from the closed-loop table's row for concurrency
# ROW, the "r (lo .. hi)" cell COLUMN (4 capacity, 7 CPU) as "r lo hi".
ratio_of() {
    awk -F'|' -v row="$2" -v col="$3" '$2 + 0 == row && $0 ~ /\(/ {
        gsub(/[()]/, "", $(col + 1)); sub(/\.\./, "", $(col + 1)); print $(col + 1); exit }' \
        "$1/report.md"
}

# report_ok OUT: the files of a run under load are there and complete.
report_ok() {
    local out=$1
    [ -s "$out/report.md" ] && [ -s "$out/blocks.csv" ] && [ -s "$out/samples.csv" ]
    grep -q '^\*\*Verdict\*\* (.* at .*): \*\*' "$out/report.md"
    head -1 "$out/blocks.csv" | grep -qx 'side,level,round,seconds,completed,failed,handshakes_per_s,cpu_s,cpu_ms_per_handshake'
    if command -v gnuplot >/dev/null; then
        [ "$(head -c 4 "$out/load.png" | od -An -c | tr -d ' ')" = '211PNG' ]
        grep -q '<svg' "$out/load.svg"
        [ -s "$out/plot.png" ]
    fi
    [ -z "$(load_left "$out")" ]
}

@test "CPU accounting: a process tree's CPU (live and reaped children) as the kernel counts it for the tree itself" {
    run timeout 60 /usr/bin/python3 - "$CS_ROOT/ab" <<'PY'
import os, sys, time
sys.path.insert(0, sys.argv[1])
import proccpu

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

r, w = os.pipe()
pid = os.fork()
if pid == 0:  # the "server": burns, forks children that burn and end, keeps one alive
    os.close(r)
    burn(0.15)
    for _ in range(3):
        c = os.fork()
        if c == 0:
            burn(0.1)
            os._exit(0)
        os.waitpid(c, 0)
    live = os.fork()
    if live == 0:
        burn(0.2)
        os.write(w, b"x")
        time.sleep(30)
        os._exit(0)
    os.write(w, b"%d\n" % live)
    time.sleep(30)
    os._exit(0)
os.close(w)
f = os.fdopen(r, "rb")
live = int(f.readline())
f.read(1)  # the live child has burnt its share
time.sleep(0.05)
got = proccpu.tree_seconds(pid)
# what the kernel counted for the same processes, read another way
def ticks(p):
    w = open("/proc/%d/stat" % p).read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in w[11:15]) / os.sysconf("SC_CLK_TCK")
other = ticks(pid) + ticks(live)
for p in (live, pid):
    os.kill(p, 9)
    os.waitpid(p, 0) if p == pid else None
print("tree %.4f s, stat ticks %.4f s, burnt at least 0.65 s" % (got, other))
assert got >= 0.6, got
assert abs(got - other) <= 0.05, (got, other)
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "--a --b under load: B burning ~5 ms more CPU per handshake is slower by CPU per handshake and by capacity (exit 1)" {
    local pa pb apid
    pa=$(free_port) pb=$(free_port)
    ab_s_server a "$pa" "$D/r2048.crt" "$D/r2048.key" no
    ab_s_server b "$pb" "$D/r4096.crt" "$D/r4096.key" no
    apid=$(cat "$D/a.pid")
    run timeout 120 "$CLI" ab tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --a-pid "$apid" \
        --concurrency 2 --rounds 4 --block-seconds 1 --out "$OUT"
    echo "$output"
    [ "$status" -eq 1 ]
    report_ok "$OUT"
    grep -q '^\*\*Verdict\*\* (server CPU per handshake at concurrency 2): \*\*B (with shim) is slower' "$OUT/report.md"
    grep -q "^- A's server CPU: pid $apid (given) and its children" "$OUT/report.md"
    grep -q "^- B's server CPU: pid [0-9]* (listening on port $pb) and its children" "$OUT/report.md"
    read -r r lo hi < <(ratio_of "$OUT" 2 7)
    echo "# CPU per handshake B/A $r ($lo .. $hi)" >&3
    awk -v lo="$lo" 'BEGIN { exit !(lo > 1.5) }'
    read -r r lo hi < <(ratio_of "$OUT" 2 4)
    echo "# capacity B/A $r ($lo .. $hi)" >&3
    awk -v hi="$hi" 'BEGIN { exit !(hi < 1 / 1.5) }'
    daemon_alive a && daemon_alive b
}

@test "--a --b A/A under load, closed and open loop: every figure with its interval, nothing left running" {
    local pa pb
    pa=$(free_port) pb=$(free_port)
    ab_s_server a "$pa" "$D/r2048.crt" "$D/r2048.key" no
    ab_s_server b "$pb" "$D/r2048.crt" "$D/r2048.key" no
    ab_run "$OUT" tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --concurrency 2 --rate 40 \
        --rounds 2 --block-seconds 0.5
    report_ok "$OUT"
    # 2 levels x 2 rounds x 2 sides, each with its server CPU
    [ "$(tail -n +2 "$OUT/blocks.csv" | wc -l)" -eq 8 ]
    [ -z "$(tail -n +2 "$OUT/blocks.csv" | awk -F, '$9 == "" || $5 == 0')" ]
    grep -q '^| 2 | [0-9.]* | [0-9.]* | [0-9.]* ([0-9.]* \.\. [0-9.]*) | [0-9.]* | [0-9.]* | [0-9.]* ([0-9.]* \.\. [0-9.]*) |$' "$OUT/report.md"
    grep -q '^| 40 | ' "$OUT/report.md"
    grep -q '^| rate 40/s | B | ' "$OUT/report.md"
    grep -q "^- machine: .*, load average " "$OUT/report.md"
    ratio_of "$OUT" 2 4 | sed 's/^/# A\/A capacity B\/A (interval): /' >&3
    ratio_of "$OUT" 2 7 | sed 's/^/# A\/A CPU per handshake B\/A (interval): /' >&3
}

@test "ab nginx under load (harness-started, rate auto): B's server counts the shim's calls, the servers stop" {
    need_cmd nginx
    ab_run "$OUT" nginx --cert rsa2048 --concurrency 1,2 --rate auto --rounds 2 \
        --block-seconds 0.3
    report_ok "$OUT"
    grep -q '^- shim calls in B (operation kernel bits calls): .*2048' "$OUT/report.md"
    # both servers on one CPU (the last), the client on the others
    if [ "$(nproc)" -ge 2 ]; then
        grep -q "^- CPUs: both servers on CPU $(($(nproc) - 1)), the load client on " "$OUT/report.md"
    fi
    # 2 closed levels and the 5 rates of auto
    [ "$(tail -n +2 "$OUT/blocks.csv" | cut -d, -f2 | sort -u | wc -l)" -eq 7 ]
    [ "$(tail -n +2 "$OUT/blocks.csv" | grep -c '^A,rate=')" -eq 10 ]
    ! pgrep -f "nginx -p /tmp/cryptoshim-ab-" >/dev/null
}

@test "ab ssh under load: sshd's per-connection children are counted in its CPU per key exchange" {
    [ "$(id -u)" -eq 0 ] || skip "sshd needs root"
    need_cmd /usr/sbin/sshd ssh ssh-keygen
    ab_run "$OUT" ssh --hostkey 2048 --kex group14 --concurrency 2 --rounds 2 --block-seconds 0.5
    report_ok "$OUT"
    # every block measured: key exchanges done and a CPU cost of at least
    # sshd's own start for each (it re-executes itself per connection)
    [ -z "$(tail -n +2 "$OUT/blocks.csv" | awk -F, '$5 == 0 || $9 == "" || $9 < 0.5')" ]
}

@test "ab ssh --a --b under load, open loop: key exchanges at a fixed rate against two running sshd, their CPU found by port" {
    [ "$(id -u)" -eq 0 ] || skip "sshd needs root"
    need_cmd /usr/sbin/sshd ssh-keygen
    local pa pb
    pa=$(free_port) pb=$(free_port)
    ab_sshd a "$pa" no
    ab_sshd b "$pb" yes
    ab_run "$OUT" ssh --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --kex group14 \
        --hostkey-alg rsa-sha2-256 --rate 8 --rounds 2 --block-seconds 1
    report_ok "$OUT"
    grep -q "^- A's server CPU: pid $(cat "$D/a.pid") (listening on port $pa) and its children" "$OUT/report.md"
    grep -q '^\*\*Verdict\*\* (server CPU per handshake at rate 8/s)' "$OUT/report.md"
    [ -z "$(tail -n +2 "$OUT/blocks.csv" | awk -F, '$5 == 0 || $9 == ""')" ]
    [ "$(stats_sum "$D/b.stats" '!libcrypto')" -gt 0 ]
    daemon_alive a && daemon_alive b
}

@test "bad input: unreachable endpoint, PID missing or not the listener, N too large, plan too long, off loopback: one line, status 2, nothing left" {
    local pa pb pdead
    pa=$(free_port) pb=$(free_port)
    ab_s_server a "$pa" "$D/r2048.crt" "$D/r2048.key" no
    # unreachable: nothing listens on B's port yet
    ab_fails "B (127.0.0.1:$pb) is unreachable: connection refused" \
        tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --concurrency 2 --rounds 2 --block-seconds 0.5
    ab_s_server a2 "$pb" "$D/r2048.crt" "$D/r2048.key" no
    # a PID that is gone
    sleep 0 &
    pdead=$!
    wait "$pdead"
    ab_fails "--b-pid $pdead: process $pdead does not exist" \
        tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --b-pid "$pdead" --concurrency 2 --rounds 2 \
        --block-seconds 0.5
    # a PID that is not the listener (nor its parent)
    start_daemon other "$BATS_TEST_TMPDIR/other.log" sleep 60
    ab_fails "--a-pid $(cat "$D/other.pid") does not listen on port $pa (listening: pid $(cat "$D/a.pid"))" \
        tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --a-pid "$(cat "$D/other.pid")" \
        --concurrency 2 --rounds 2 --block-seconds 0.5
    ab_fails "--concurrency 100000 is too large for this machine: at most * handshakes in flight (256 per CPU, * CPUs; * file descriptors)" \
        tls --cert rsa2048 --concurrency 100000
    ab_fails "--concurrency 100000 is too large for this machine*" \
        tls --a "127.0.0.1:$pa" --b "127.0.0.1:$pb" --concurrency 100000
    ab_fails "the plan takes about * s (1 levels x 100 rounds x 2 blocks of 60 s), more than --max-seconds 600" \
        tls --cert rsa2048 --concurrency 2 --rounds 100 --block-seconds 60
    ab_fails "--rate 1e+06 is too large for this machine*" tls --cert rsa2048 --rate 1000000
    daemon_alive a && daemon_alive a2
    # the loopback rule, checked on addresses alone (no packet is sent)
    run /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import load
for ok in ("127.0.0.1", "127.3.4.5", "::1"):
    load.check_loopback("A", ok)
for bad in ("192.0.2.1", "10.0.0.1", "2001:db8::1", "::ffff:192.0.2.1"):
    try:
        load.check_loopback("A", bad)
    except load.LoadError as e:
        print(e)
    else:
        raise SystemExit("accepted " + bad)' "$CS_ROOT/ab"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(grep -c 'is not a loopback address: load runs only against this machine' <<<"$output")" -eq 4 ]
}
