#!/usr/bin/env bats
# Debian's nginx on OpenSSL 3.5's libraries (run through the build/openssl35
# tree's loader, so its libssl.so.3 and libcrypto.so.3 are 3.5's), started
# from a generated config on a high port with the shim preloaded into the
# master and so its workers, offering the ML-KEM groups: TLS 1.3 handshakes
# from 3.5's s_client (stock) on each pure and hybrid group, each counted in
# the workers' stats as one encapsulation on our kernels. About 10 s.

load "helpers/common"
load "helpers/nginx"
load mldsa_helpers

MLKEM_KERNELS=${MLKEM_KERNELS:-avx512,avx2,portable}
TREE="$CS_BUILD/openssl35/root/usr/lib/x86_64-linux-gnu"
GROUP_LIST=X25519MLKEM768:SecP256r1MLKEM768:SecP384r1MLKEM1024:MLKEM512:MLKEM768:MLKEM1024

setup_file() {
    cs_env
    cs_ready || return 0
    [ -x "$NGINX" ] && [ -e "$TREE/libssl.so.3" ] || return 0
    local d=$BATS_FILE_TMPDIR
    make_rsa_cert "$d" server 2048
    PORT=$(free_port)
    echo "$PORT" >"$d/port"
    mkdir -p "$d/nginx/logs"
    cat >"$d/nginx.conf" <<CONF
user nobody nogroup;
daemon off;
master_process on;
worker_processes 1;
pid $d/nginx/nginx.pid;
error_log $d/nginx/logs/error.log warn;
env CRYPTOSHIM_STATS;
env CRYPTOSHIM_KERNELS;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $d/nginx/client_body;
    proxy_temp_path $d/nginx/proxy;
    fastcgi_temp_path $d/nginx/fastcgi;
    uwsgi_temp_path $d/nginx/uwsgi;
    scgi_temp_path $d/nginx/scgi;
    server {
        listen 127.0.0.1:$PORT ssl;
        server_name localhost;
        ssl_certificate $d/server.crt;
        ssl_certificate_key $d/server.key;
        ssl_protocols TLSv1.3;
        ssl_ecdh_curve $GROUP_LIST;
        ssl_session_cache off;
        ssl_session_tickets off;
        location / { return 200 "cryptoshim nginx test\n"; }
    }
}
CONF
    # 3.5's loader and libraries (its bin/run); the system's after them
    # (pcre2 etc.), from the loader's default paths
    nginx_daemon CRYPTOSHIM_KERNELS="$MLKEM_KERNELS" "$CS_BUILD/openssl35/bin/run"
}

# have_tree35: skips without the OpenSSL 3.5 tree.
have_tree35() {
    [ -e "$TREE/libssl.so.3" ] || skip "no OpenSSL 3.5 tree (make openssl35)"
}

setup() {
    nginx_setup have_tree35
}

# get GROUP: one HTTPS request over TLS 1.3 offering only GROUP, from stock
# 3.5; the response and the negotiated group are checked.
get() {
    run timeout 20 env -u LD_PRELOAD -u CRYPTOSHIM_STATS "$OSSL35" s_client \
        -connect 127.0.0.1:$PORT -servername localhost -tls1_3 -groups "$1" -quiet \
        -CAfile "$D/server.crt" -verify_return_error -verify_hostname localhost \
        < <(printf 'GET / HTTP/1.0\r\nHost: localhost\r\n\r\n')
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"cryptoshim nginx test"* ]]
}

@test "nginx on 3.5: every ML-KEM group negotiates and each handshake is one encapsulation on our kernels" {
    local g before after ps
    for g in ${GROUP_LIST//:/ }; do
        case $g in *512) ps=512 ;; *1024) ps=1024 ;; *) ps=768 ;; esac
        before=$(calls "$D/nginx.stats" mlkem_encaps "$ps")
        get "$g"
        run timeout 20 env -u LD_PRELOAD "$OSSL35" s_client -connect 127.0.0.1:$PORT \
            -tls1_3 -groups "$g" </dev/null
        [[ "$output" == *"Negotiated TLS1.3 group: $g"* ]]
        after=$(calls "$D/nginx.stats" mlkem_encaps "$ps")
        [ "$((after - before))" -eq 2 ] || {
            echo "$g: $((after - before)) ML-KEM-$ps encapsulations counted for 2 handshakes" >&2
            return 1
        }
    done
}
