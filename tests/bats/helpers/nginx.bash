# Shared by the suites that start Debian's nginx themselves (nginx.bats,
# mlkem_nginx.bats): one nginx from BATS_FILE_TMPDIR/nginx.conf (prefix
# BATS_FILE_TMPDIR/nginx) on the port recorded in BATS_FILE_TMPDIR/port,
# the shim preloaded into its master and so its workers, stopped after the
# file's tests (this file defines teardown_file). Load after helpers/common.

NGINX=${NGINX:-/usr/sbin/nginx}

# nginx_daemon ENV...: starts nginx (output in nginx.out) under env(1) with
# the shim preloaded counting into nginx.stats and ENV (NAME=VALUE, then
# optionally a loader to run it with), and waits until it listens on PORT.
nginx_daemon() {
    local d=$BATS_FILE_TMPDIR
    start_daemon nginx "$d/nginx.out" env CRYPTOSHIM_STATS="$d/nginx.stats" LD_PRELOAD="$SHIM" \
        "$@" "$NGINX" -p "$d/nginx" -c "$d/nginx.conf"
    wait_port "$PORT"
}

teardown_file() {
    stop_daemon nginx
}

# nginx_setup [CHECK...]: for setup(): the shim core built, nginx installed,
# the suite's own CHECK (which may skip) passed; D the file's scratch
# directory, PORT nginx's.
nginx_setup() {
    cs_env
    cs_require
    [ -x "$NGINX" ] || skip "nginx not installed"
    [ $# -eq 0 ] || "$@"
    D=$BATS_FILE_TMPDIR
    PORT=$(cat "$D/port")
}
