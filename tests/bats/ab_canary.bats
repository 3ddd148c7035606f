#!/usr/bin/env bats
# The canary recipe of docs/ab.md and cryptoshim(7), with processes in place
# of the systemd units: a "production" sshd or nginx from its configuration,
# the canary from the same configuration on another port with the shim (the
# unit's command line and environment; nginx: the recipe's configuration
# copy, its sed included), A/B live and from the operator's capture, then
# the roll back (canary stopped): production untouched (same pid, still
# serving, never had the shim) and nothing left. Needs root. About 30 s.

load "helpers/common"
load "helpers/ab"

setup() {
    ab_setup "sshd and tcpdump need root" tcpdump gnuplot
    D=$BATS_TEST_TMPDIR
}

teardown() {
    ab_stop production canary dump
}

# no_shim PID: the process has no libcryptoshim.so mapped.
no_shim() {
    ! grep -q libcryptoshim "/proc/$1/maps"
}

# rolled_back PORT_CANARY PID_PRODUCTION PORT_PRODUCTION: after stopping the
# canary, its port is closed, production is the same process, still
# listening and still without the shim.
rolled_back() {
    stop_daemon canary
    ! wait_port "$1" 1 2>/dev/null
    kill -0 "$2"
    no_shim "$2"
    wait_port "$3" 2
}

@test "canary recipe, sshd: second instance with -p and the shim, A/B live and from a capture, roll back" {
    local p1 p2 prod conf=$D/sshd_config
    p1=$(free_port) p2=$(free_port)
    ssh-keygen -q -t rsa -b 3072 -N '' -f "$D/hostkey"
    # the production configuration: Port, ListenAddress without a port
    cat >"$conf" <<CONF
Port $p1
ListenAddress 127.0.0.1
HostKey $D/hostkey
PidFile $D/sshd.pid
UsePAM no
PasswordAuthentication no
KexAlgorithms diffie-hellman-group16-sha512,curve25519-sha256
HostKeyAlgorithms rsa-sha2-512
MaxStartups 200
LogLevel ERROR
CONF
    mkdir -p /run/sshd
    start_daemon production "$D/production.log" /usr/sbin/sshd -D -e -f "$conf"
    wait_port "$p1"
    prod=$(cat "$BATS_FILE_TMPDIR/production.pid")
    # ssh-canary.service: ExecStartPre, then ExecStart with its Environment=
    /usr/sbin/sshd -t -f "$conf" -p "$p2" -o PidFile="$D/sshd-canary.pid"
    start_daemon canary "$D/canary.log" env LD_PRELOAD="$SHIM" \
        CRYPTOSHIM_STATS="$D/ssh-canary.stats" \
        /usr/sbin/sshd -D -e -f "$conf" -p "$p2" -o PidFile="$D/sshd-canary.pid"
    wait_port "$p2"
    grep -q libcryptoshim "/proc/$(cat "$BATS_FILE_TMPDIR/canary.pid")/maps"
    no_shim "$prod"
    # live, with the operator's capture beside it
    ab_tcpdump dump "$D/canary.pcap" "$p1" "$p2"
    ab_run "$OUT" ssh --a "127.0.0.1:$p1" --b "127.0.0.1:$p2" -n 10 --block 5 --kex group16
    ab_tcpdump_stop dump
    ab_check "$OUT" 10
    grep -Eq "^- B's server: sshd pid [0-9]+ with libcryptoshim.so loaded" "$OUT/report.md"
    grep -Eq "^- A's server: sshd pid $prod without the shim" "$OUT/report.md"
    [ "$(stats_sum "$D/ssh-canary.stats" '!libcrypto')" -gt 0 ]
    # from the capture: the 10 measured and the warm-up exchange per side
    ab_run "$OUT.p" pcap "$D/canary.pcap" --a "*:$p1" --b "*:$p2"
    ab_check_pcap "$OUT.p" 11 11
    rolled_back "$p2" "$prod" "$p1"
    # production still completes key exchanges
    timeout 30 /usr/bin/python3 "$CS_ROOT/ab/sshkex.py" 127.0.0.1 "$p1" \
        diffie-hellman-group16-sha512 rsa-sha2-512 1
}

@test "canary recipe, nginx: the configuration copy on another port with the shim, A/B, roll back" {
    [ -x /usr/sbin/nginx ] || skip "nginx not installed"
    local p1 p2 prod f
    p1=$(free_port) p2=$(free_port)
    make_rsa_cert "$D" srv 3072
    # "production": a main configuration including its site from sites-enabled/
    mkdir -p "$D/nginx/logs" "$D/nginx/sites-enabled"
    /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import servers
print(servers.nginx_conf(*sys.argv[2:6]), end="")' "$CS_ROOT/ab" "$D/nginx" "$p1" \
        "$D/srv.crt" "$D/srv.key" >"$D/nginx/all.conf"
    # split it as Debian's layout is: the server block in sites-enabled/site
    awk '/^    server \{/ { s = 1 } s { print > site; if (/^    \}$/) s = 0; next } { print }' \
        site="$D/nginx/sites-enabled/site" "$D/nginx/all.conf" |
        sed "s#^http {#http {\n    include $D/nginx/sites-enabled/*;#" >"$D/nginx/nginx.conf"
    grep -q "listen 127.0.0.1:$p1 ssl;" "$D/nginx/sites-enabled/site"
    start_daemon production "$D/production.log" /usr/sbin/nginx -p "$D/nginx" -c "$D/nginx/nginx.conf"
    wait_port "$p1"
    prod=$(cat "$BATS_FILE_TMPDIR/production.pid")
    # the recipe's copy (its sed lines, with this test's paths and ports)
    cp "$D/nginx/nginx.conf" "$D/nginx/nginx-canary.conf"
    mkdir -p "$D/nginx/canary-sites"
    sed -i -e "s#^pid .*#pid $D/nginx/nginx-canary.pid;#" \
        -e "s#$D/nginx/sites-enabled/#$D/nginx/canary-sites/#" "$D/nginx/nginx-canary.conf"
    for f in "$D"/nginx/sites-enabled/*; do
        sed "s/\\(listen[^;]*[: ]\\)$p1\\b/\\1$p2/" "$f" >"$D/nginx/canary-sites/${f##*/}"
    done
    /usr/sbin/nginx -t -q -p "$D/nginx" -c "$D/nginx/nginx-canary.conf"
    start_daemon canary "$D/canary.log" env LD_PRELOAD="$SHIM" \
        CRYPTOSHIM_STATS="$D/nginx-canary.stats" \
        /usr/sbin/nginx -p "$D/nginx" -c "$D/nginx/nginx-canary.conf"
    wait_port "$p2"
    no_shim "$prod"
    ab_run "$OUT" tls --a "127.0.0.1:$p1" --b "127.0.0.1:$p2" -n 20 --block 10 --sni localhost
    ab_check "$OUT" 20
    grep -Eq "^- B's server: nginx pid [0-9]+ with libcryptoshim.so loaded" "$OUT/report.md"
    [ "$(stats_sum "$D/nginx-canary.stats" '!libcrypto')" -gt 0 ]
    # the harness's own capture, re-read as an operator's
    ab_run "$OUT.p" pcap "$OUT/capture.pcap" --a "127.0.0.1:$p1" --b "127.0.0.1:$p2"
    ab_check_pcap "$OUT.p" 20 20
    rolled_back "$p2" "$prod" "$p1"
    timeout 30 "$CS_BUILD/ab-tls-client" 127.0.0.1 "$p1" 1
    # production's workers are still its own: no process of the canary is left
    ! pgrep -f "nginx-canary.conf" >/dev/null
}
