# Shared helpers for the end-to-end BATS suites (tests/bats, tests/ssh).
# Load with: load "${BATS_TEST_DIRNAME}/helpers/common" (or ../bats/helpers/common).
# Every daemon a suite starts is recorded by pid and stopped by that pid.

# cs_env: sets CS_ROOT, CS_BUILD, VECTORS (when run outside scripts/run-tests.sh),
# SHIM (the preload library) and CLI (build/cryptoshim).
cs_env() {
    : "${CS_ROOT:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
    : "${CS_BUILD:=$CS_ROOT/build}"
    : "${VECTORS:=$CS_ROOT/tests/vectors}"
    SHIM=$CS_BUILD/libcryptoshim.so
    CLI=$CS_BUILD/cryptoshim
    export CS_ROOT CS_BUILD VECTORS SHIM CLI
}

# cs_ready: true when the library interposes BN_mod_exp_mont and the CLI
# exists (false on a tree where the shim core is not built).
cs_ready() {
    [ -f "$SHIM" ] && [ -x "$CLI" ] &&
        nm -D --defined-only "$SHIM" 2>/dev/null | grep -q ' BN_mod_exp_mont\b'
}

# cs_require: for setup(): skips the test when cs_ready is false.
cs_require() {
    cs_ready || skip "shim core not built ($SHIM or $CLI missing or not interposing)"
}

# need_cmd CMD...: skips the test when a command is not installed.
need_cmd() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || skip "$c not installed"
    done
}

# free_port: prints a TCP port on 127.0.0.1 that is free right now.
free_port() {
    /usr/bin/python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT [SECONDS]: waits (bounded) until something listens on PORT.
wait_port() {
    local port=$1 limit=${2:-10} i
    for ((i = 0; i < limit * 20; i++)); do
        if /usr/bin/python3 -c 'import socket,sys
s = socket.socket(); s.settimeout(0.2)
sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$port" 2>/dev/null; then
            return 0
        fi
        sleep 0.05
    done
    echo "nothing listening on port $port after ${limit}s" >&2
    return 1
}

# start_daemon NAME LOG CMD...: runs CMD in the background (fd 3 closed so
# bats does not wait on it), its pid recorded in $BATS_FILE_TMPDIR/NAME.pid.
start_daemon() {
    local name=$1 log=$2; shift 2
    "$@" </dev/null >"$log" 2>&1 3>&- &
    echo $! >"$BATS_FILE_TMPDIR/$name.pid"
}

# stop_daemon NAME: stops the daemon started as NAME by its own pid (TERM,
# then KILL after a bounded wait). Harmless if it is already gone.
stop_daemon() {
    local f="$BATS_FILE_TMPDIR/$1.pid" pid i
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    rm -f "$f"
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# daemon_alive NAME: true while the recorded process runs.
daemon_alive() {
    local f="$BATS_FILE_TMPDIR/$1.pid"
    [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

# make_rsa_cert DIR NAME BITS: self-signed certificate DIR/NAME.crt for
# CN=localhost with its key DIR/NAME.key.
make_rsa_cert() {
    local dir=$1 name=$2 bits=$3
    openssl req -x509 -newkey "rsa:$bits" -nodes -sha256 -days 2 \
        -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
        -keyout "$dir/$name.key" -out "$dir/$name.crt" 2>/dev/null
}

# stats_rows FILE: the counter rows of a stats file, without the header
# ("operation kernel bits calls", tab-separated).
stats_rows() {
    [ -e "$1" ] || return 0
    "$CLI" stats "$1" | tail -n +2
}

# stats_sum FILE [KERNEL [OP [BITS]]]: total calls matching the filters; a
# filter "*" matches anything, KERNEL "!libcrypto" matches every shim kernel.
stats_sum() {
    local file=$1 kernel=${2:-*} op=${3:-*} bits=${4:-*}
    stats_rows "$file" | awk -F'\t' -v k="$kernel" -v o="$op" -v b="$bits" '
        (k == "*" || $2 == k || (k == "!libcrypto" && $2 != "libcrypto")) &&
        (o == "*" || $1 == o) && (b == "*" || $3 == b) { s += $4 }
        END { print s + 0 }'
}

# ossl_drive VER LIB DRIVER [NAME=VALUE...] -- ARGS...: DRIVER ARGS on OpenSSL
# VER's libraries (30: the system's; else build/opensslVER/bin/run, the tree's
# loader, libraries, configuration and modules, the one way the suites run a
# program under another OpenSSL), LIB preloaded unless "none", NAME=VALUE set
# and -u NAME unset (env's words).
ossl_drive() {
    local ver=$1 lib=$2 driver=$3 unset=() set=() run=()
    shift 3
    [ "$lib" = none ] && unset=(-u LD_PRELOAD) || set=(LD_PRELOAD="$lib")
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        if [ "$1" = -u ]; then unset+=(-u "$2"); shift; else set+=("$1"); fi
        shift
    done
    shift
    [ "$ver" = 30 ] || run=("$CS_BUILD/openssl$ver/bin/run")
    env "${unset[@]}" "${set[@]}" "${run[@]}" "$driver" "$@"
}

# ossl_have VER DRIVER40: OpenSSL VER's tree is there (30, the system's,
# always); for 4.0 also DRIVER40, the driver linked against libcrypto.so.4.
ossl_have() {
    [ "$1" = 30 ] && return 0
    local lib="$CS_BUILD/openssl$1/root/usr/lib/x86_64-linux-gnu"
    if [ "$1" = 40 ]; then
        [ -e "$lib/libcrypto.so.4" ] && [ -x "$2" ]
    else
        [ -e "$lib/libcrypto.so.3" ]
    fi
}

# with_shim CMD...: runs CMD with the shim preloaded (environment otherwise
# as the caller set it: CRYPTOSHIM_STATS, CRYPTOSHIM_KERNELS, ...).
with_shim() {
    LD_PRELOAD=$SHIM "$@"
}

# keygen_lines_ok: after `run` of helpers/dlopen_keygen.c, checks it exited 0
# and printed its three results as passed (RSA keygen, RSA sign and verify,
# EC keygen), in that order.
keygen_lines_ok() {
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "rsa keygen ok" ]
    [ "${lines[1]}" = "rsa sign and verify ok" ]
    [ "${lines[2]}" = "ec keygen ok" ]
}

# shim_env yes|no STATS [KERNELS]: env(1) words running a program with the
# shim preloaded, counting into STATS (and CRYPTOSHIM_KERNELS=KERNELS when
# given), or without it (no).
shim_env() {
    if [ "$1" = yes ]; then
        echo "LD_PRELOAD=$CS_BUILD/libcryptoshim.so CRYPTOSHIM_STATS=$2${3:+ CRYPTOSHIM_KERNELS=$3}"
    else
        echo "-u LD_PRELOAD -u CRYPTOSHIM_STATS"
    fi
}

# tcp_listening PORT: whether a TCP socket listens on PORT (needs ss).
tcp_listening() {
    ss -Hltn "sport = :$1" | grep -q .
}

# tls13_handshake LIMIT SRV_ENV CLI_ENV OPENSSL SERVER_ARGS... -- CLIENT_ARGS...:
# one TLS 1.3 handshake on a random loopback port between `OPENSSL s_server
# -naccept 1 -quiet SERVER_ARGS` and `OPENSSL s_client CLIENT_ARGS` (sent
# "Q"), each under env(1) with the words of SRV_ENV / CLI_ENV (shim_env) and
# bounded by LIMIT seconds; their output in srv.out and cli.out here.
# Returns s_client's status, or 1 (srv.out shown) when no server listened
# after five tries.
tls13_handshake() {
    local limit=$1 senv=$2 cenv=$3 bin=$4 sargs=() port pid rc
    shift 4
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        sargs+=("$1")
        shift
    done
    shift
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        # shellcheck disable=SC2086 # the env words
        timeout "$limit" env $senv "$bin" s_server -accept 127.0.0.1:$port -naccept 1 -tls1_3 \
            -quiet "${sargs[@]}" >srv.out 2>&1 </dev/null &
        pid=$!
        # Wait until it listens (-quiet prints nothing; a probe connection
        # would use up -naccept 1).
        for _ in $(seq 100); do
            tcp_listening $port && break
            kill -0 $pid 2>/dev/null || break
            sleep 0.1
        done
        if tcp_listening $port; then
            rc=0
            # shellcheck disable=SC2086
            echo Q | timeout "$limit" env $cenv "$bin" s_client -connect 127.0.0.1:$port -tls1_3 \
                "$@" >cli.out 2>&1 || rc=$?
            wait $pid || true
            return $rc
        fi
        kill $pid 2>/dev/null || true
        wait $pid 2>/dev/null || true
    done
    echo "server did not start" >&2
    cat srv.out >&2
    return 1
}

# openssl_of VER: prints the openssl program of OpenSSL VER (30: the
# system's; else its tree's wrapper); fails when the tree is not built.
openssl_of() {
    if [ "$1" = 30 ]; then
        command -v openssl
        return
    fi
    local bin="$CS_BUILD/openssl$1/bin/openssl"
    [ -x "$bin" ] && [ ! -e "$CS_BUILD/openssl$1/.missing" ] && echo "$bin"
}

# ossl_absent VER: notes on fd 3 that OpenSSL VER's tree is not built (the
# caller passes over that version).
ossl_absent() {
    echo "# OpenSSL ${1:0:1}.${1:1} not built (make openssl$1): skipped" >&3
}

# ossl_versions DRIVER40 REQUIRED VER...: prints each VER whose tree is there
# (ossl_have, DRIVER40 for 4.0), one a line, noting the others; fails when
# the version REQUIRED ("none": no version) is absent.
ossl_versions() {
    local d40=$1 req=$2 ver
    shift 2
    for ver in "$@"; do
        if ossl_have "$ver" "$d40"; then
            echo "$ver"
        elif [ "$ver" = "$req" ]; then
            echo "missing OpenSSL ${ver:0:1}.${ver:1} tree (make openssl$ver)" >&2
            return 1
        else
            ossl_absent "$ver"
        fi
    done
}

# tls_group_handshake LIMIT KERNELS OPENSSL GROUP SERVER_SHIM CLIENT_SHIM
# CERT KEY PATTERN...: tls13_handshake offering only GROUP, the server's
# certificate CERT with its key KEY, the sides marked yes with the shim
# (KERNELS forced, counting into srv.st and cli.st here); the client must
# succeed and print a line matching each extended regex PATTERN.
tls_group_handshake() {
    local limit=$1 kernels=$2 bin=$3 group=$4 srv=$5 cli=$6 cert=$7 key=$8 rc=0 pat
    shift 8
    tls13_handshake "$limit" "$(shim_env "$srv" "$PWD/srv.st" "$kernels")" \
        "$(shim_env "$cli" "$PWD/cli.st" "$kernels")" "$bin" -groups "$group" -cert "$cert" \
        -key "$key" -- -groups "$group" || rc=$?
    for pat in "$@"; do
        [ $rc -ne 0 ] || grep -Eq "$pat" cli.out || rc=1
    done
    if [ $rc -ne 0 ]; then
        cat cli.out srv.out >&2
        echo "handshake with group $group failed (server shim: $srv, client: $cli)" >&2
        return 1
    fi
}

# need_tree VAR VER FILE: sets VAR to build/opensslVER/FILE (a program or
# library of an unpacked OpenSSL), or skips the test when it is not there.
need_tree() {
    printf -v "$1" '%s' "$CS_BUILD/openssl$2/$3"
    [ -e "${!1}" ] || skip "build/openssl$2 missing (make openssl$2)"
}

# output_has TEXT...: $output (of `run`) contains every TEXT.
output_has() {
    local t
    for t in "$@"; do
        [[ "$output" == *"$t"* ]] || { echo "output lacks: $t" >&2; return 1; }
    done
}
