#!/usr/bin/env bats
# Debian's nginx started from a generated config on a high port (not the
# system service), RSA-3072 certificate, the shim preloaded into the master
# and so into its workers: HTTPS to curl over TLS 1.2 and 1.3, the workers'
# kernel calls in the stats, and the A/B harness against it. About 15 s.

load "helpers/common"
load "helpers/nginx"

setup_file() {
    cs_env
    cs_ready || return 0
    [ -x "$NGINX" ] || return 0
    local d=$BATS_FILE_TMPDIR
    make_rsa_cert "$d" server 3072
    openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048 -out "$d/dh.pem"
    PORT=$(free_port)
    echo "$PORT" >"$d/port"
    # The config generator is the one the A/B harness uses.
    /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
import servers; print(servers.nginx_conf(*sys.argv[2:7]))' "$CS_ROOT/ab" \
        "$d/nginx" "$PORT" "$d/server.crt" "$d/server.key" "$d/dh.pem" >"$d/nginx.conf"
    mkdir -p "$d/nginx/logs"
    "$NGINX" -t -q -p "$d/nginx" -c "$d/nginx.conf"
    nginx_daemon CRYPTOSHIM_KERNELS=portable
}

setup() {
    nginx_setup need_cmd curl
}

# fetch ARGS...: one HTTPS request verified against the test certificate.
fetch() {
    run timeout 30 curl -sS --cacert "$D/server.crt" "$@" "https://localhost:$PORT/" \
        --resolve "localhost:$PORT:127.0.0.1"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "cryptoshim nginx test" ]
}

@test "nginx serves HTTPS to curl over TLS 1.3" {
    fetch --tlsv1.3
}

@test "nginx serves HTTPS to curl over TLS 1.2 (ECDHE-RSA)" {
    fetch --tlsv1.2 --tls-max 1.2
}

@test "nginx serves HTTPS over TLS 1.2 with DHE-RSA (ffdhe2048 parameters)" {
    local before
    before=$(stats_sum "$D/nginx.stats" portable '*' 2048)
    fetch --tlsv1.2 --tls-max 1.2 --ciphers DHE-RSA-AES128-GCM-SHA256
    [ "$(stats_sum "$D/nginx.stats" portable '*' 2048)" -gt "$before" ]
}

@test "20 requests in a row all verify" {
    local i
    for i in $(seq 20); do
        fetch
    done
}

@test "the workers' RSA-3072 signatures are counted under portable" {
    stats_rows "$D/nginx.stats"
    # CRT halves of the 3072-bit key.
    [ "$(stats_sum "$D/nginx.stats" portable '*' 1536)" -gt 0 ]
    daemon_alive nginx
    ! grep -Ei 'alert|emerg|crit' "$D/nginx/logs/error.log"
}
