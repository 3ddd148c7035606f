# Helpers for the A/B harness suites: run `cryptoshim ab` briefly and check
# its outputs. Timing never decides pass or fail: exit status 0 (faster or no
# difference) and 1 (slower) are both accepted, 2 (error) is not.

# ab_run OUTDIR ARGS...: runs `cryptoshim ab ARGS --out OUTDIR`.
ab_run() {
    local out=$1; shift
    run timeout --kill-after=10 300 "$CLI" ab "$@" --out "$out"
    echo "$output"
    [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
}

# ab_check OUTDIR N: the report, CSV, and plots exist; N client samples and
# N server-side (wire) samples per side; a verdict is stated.
ab_check() {
    local out=$1 n=$2 side metric count
    [ -s "$out/report.md" ]
    [ -s "$out/samples.csv" ]
    [ -s "$out/plot.png" ]
    [ -s "$out/plot.svg" ]
    grep -q '^\*\*Verdict\*\*' "$out/report.md"
    grep -q 'B/A ratio of medians' "$out/report.md"
    head -1 "$out/samples.csv" | grep -qx 'side,block,index,metric,microseconds'
    for side in A B; do
        for metric in client server; do
            count=$(grep -c "^$side,[0-9]*,[0-9]*,$metric," "$out/samples.csv")
            echo "$side $metric samples: $count"
            [ "$count" -eq "$n" ]
        done
    done
    [ "$(head -c 4 "$out/plot.png" | od -An -c | tr -d ' ')" = '211PNG' ]
    grep -q '<svg' "$out/plot.svg"
}

# --- "The user's services" for ab --a/--b and ab pcap (tests/bats/ab_*.bats):
# daemons started by the test on free loopback ports, stock or with the shim
# (LD_PRELOAD and CRYPTOSHIM_STATS=DIR/NAME.stats), stopped by their pids.

# ab_env SHIM?: the env(1) arguments of a stock (no) or shimmed (yes) daemon NAME.
ab_env() {
    if [ "$1" = yes ]; then
        echo "LD_PRELOAD=$SHIM CRYPTOSHIM_STATS=$BATS_FILE_TMPDIR/$2.stats"
    else
        echo "CS_AB_STOCK=1"
    fi
}

# ab_s_server NAME PORT CERT KEY yes|no [ARGS...]: `openssl s_server -www` on
# 127.0.0.1:PORT, no tickets, with the shim or without.
ab_s_server() {
    local name=$1 port=$2 cert=$3 key=$4 shim=$5; shift 5
    # shellcheck disable=SC2046
    start_daemon "$name" "$BATS_FILE_TMPDIR/$name.log" env $(ab_env "$shim" "$name") \
        openssl s_server -accept "127.0.0.1:$port" -cert "$cert" -key "$key" -www -quiet \
        -num_tickets 0 "$@"
    wait_port "$port"
}

# ab_nginx NAME PORT CERT KEY yes|no: Debian's nginx from the harness's own
# generated configuration (servers.nginx_conf) under BATS_FILE_TMPDIR/NAME.
ab_nginx() {
    local name=$1 port=$2 cert=$3 key=$4 shim=$5 prefix=$BATS_FILE_TMPDIR/$1
    mkdir -p "$prefix/logs"
    /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import servers
print(servers.nginx_conf(*sys.argv[2:6]), end="")' "$CS_ROOT/ab" "$prefix" "$port" \
        "$cert" "$key" >"$prefix/nginx.conf"
    # shellcheck disable=SC2046
    start_daemon "$name" "$prefix/stderr.log" env $(ab_env "$shim" "$name") \
        /usr/sbin/nginx -p "$prefix" -c "$prefix/nginx.conf"
    wait_port "$port"
}

# ab_sshd NAME PORT yes|no: Debian's sshd on 127.0.0.1:PORT with the file's
# shared RSA-3072 host key (BATS_FILE_TMPDIR/ssh_host_key, made once), every
# KEX the harness knows, no login possible (no authorized keys).
ab_sshd() {
    local name=$1 port=$2 shim=$3 d=$BATS_FILE_TMPDIR
    [ -f "$d/ssh_host_key" ] || ssh-keygen -q -t rsa -b 3072 -N '' -C ab -f "$d/ssh_host_key"
    cat >"$d/$name.sshd_config" <<CONF
ListenAddress 127.0.0.1:$port
HostKey $d/ssh_host_key
PidFile $d/$name.sshd.pid
AuthorizedKeysFile none
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
KexAlgorithms diffie-hellman-group14-sha256,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512,diffie-hellman-group-exchange-sha256,curve25519-sha256,ecdh-sha2-nistp256
HostKeyAlgorithms rsa-sha2-256,rsa-sha2-512
MaxStartups 200
LogLevel ERROR
CONF
    mkdir -p /run/sshd
    chmod 0755 /run/sshd
    # shellcheck disable=SC2046
    start_daemon "$name" "$d/$name.log" env $(ab_env "$shim" "$name") \
        /usr/sbin/sshd -D -e -f "$d/$name.sshd_config"
    wait_port "$port"
}

# ab_tcpdump NAME FILE PORT...: the test's own capture (as an operator takes
# one on the server: tcpdump -w) of TCP on loopback to the ports; waits until
# it listens.
ab_tcpdump() {
    local name=$1 file=$2 flt i; shift 2
    flt="tcp and ($(printf 'port %s or ' "$@" | sed 's/ or $//'))"
    start_daemon "$name" "$file.log" tcpdump -i lo -n -s 0 -B 16384 -U --immediate-mode \
        --time-stamp-precision nano -w "$file" "$flt"
    for ((i = 0; i < 100; i++)); do
        grep -q 'listening on' "$file.log" 2>/dev/null && { sleep 0.2; return 0; }
        sleep 0.05
    done
    cat "$file.log" >&2
    return 1
}

# ab_tcpdump_stop NAME: stops the test's capture (SIGINT: the file is flushed).
ab_tcpdump_stop() {
    local f="$BATS_FILE_TMPDIR/$1.pid" pid i
    pid=$(cat "$f")
    sleep 0.3
    kill -INT "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    stop_daemon "$1"
}

# ab_left OUT: prints every process recorded in OUT/pids that still runs.
ab_left() {
    local pid
    [ -f "$1/pids" ] || return 0
    for pid in $(awk '{print $1}' "$1/pids"); do
        if kill -0 "$pid" 2>/dev/null && ! grep -q '^Z' <(ps -o stat= -p "$pid"); then
            echo "$pid"
        fi
    done
}

# ab_server_samples OUT SIDE: the server-side samples of SIDE in samples.csv
# (microseconds, in order).
ab_server_samples() {
    awk -F, -v s="$2" '$1 == s && $4 == "server" { print $5 }' "$1/samples.csv"
}

# ab_check_pcap OUTDIR NA NB: an `ab pcap` report: report, CSV, plots, a
# verdict, and exactly NA and NB server-side samples for A and B.
ab_check_pcap() {
    local out=$1
    [ -s "$out/report.md" ] && [ -s "$out/plot.png" ] && [ -s "$out/plot.svg" ]
    grep -q '^\*\*Verdict\*\* (server latency)' "$out/report.md"
    echo "A $(grep -c '^A,,[0-9]*,server,' "$out/samples.csv") B $(grep -c '^B,,[0-9]*,server,' "$out/samples.csv")"
    [ "$(grep -c '^A,,[0-9]*,server,' "$out/samples.csv")" -eq "$2" ]
    [ "$(grep -c '^B,,[0-9]*,server,' "$out/samples.csv")" -eq "$3" ]
    [ "$(grep -c ',client,' "$out/samples.csv")" -eq 0 ]
}

# --- The suites' set-up ---------------------------------------------------

# ab_setup_file NAME BITS...: for setup_file(): a self-signed RSA certificate
# of each BITS in BATS_FILE_TMPDIR (NAME.crt, NAME.key; with several BITS,
# rBITS.crt and rBITS.key), when the shim core is built.
ab_setup_file() {
    local name=$1 bits
    shift
    cs_env
    cs_ready || return 0
    for bits in "$@"; do
        make_rsa_cert "$BATS_FILE_TMPDIR" "${name:-r$bits}" "$bits"
    done
}

# ab_setup WHY CMD...: for setup(): the shim core built; root, unless WHY
# is empty (else the test skips saying WHY); each command CMD installed.
# Sets OUT (the run's output directory) and D (the file's scratch directory).
ab_setup() {
    local why=$1
    shift
    cs_env
    cs_require
    [ -z "$why" ] || [ "$(id -u)" -eq 0 ] || skip "$why"
    [ $# -eq 0 ] || need_cmd "$@"
    OUT=$BATS_TEST_TMPDIR/ab
    D=$BATS_FILE_TMPDIR
}

# ab_stop NAME...: for teardown(): stops the daemons started as NAME.
ab_stop() {
    local n
    for n in "$@"; do
        stop_daemon "$n"
    done
}

# ab_fails PATTERN ARGS...: `cryptoshim ab ARGS` exits 2 with exactly one
# line on stderr, "cryptoshim ab: PATTERN" (a glob), and leaves nothing
# running (AB_LEFT, default ab_left, prints nothing for OUT).
ab_fails() {
    local pattern=$1
    shift
    run --separate-stderr timeout --kill-after=10 120 "$CLI" ab "$@" --out "$OUT"
    echo "status $status; stderr: $stderr"
    [ "$status" -eq 2 ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == cryptoshim\ ab:\ $pattern ]]
    [ -z "$("${AB_LEFT:-ab_left}" "$OUT")" ]
}
