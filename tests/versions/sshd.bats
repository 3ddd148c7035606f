#!/usr/bin/env bats
# Debian 12's sshd with an RSA-2048 host key and finite-field DH key exchange
# (diffie-hellman-group14-sha256 and diffie-hellman-group-exchange-sha256),
# the shim preloaded and the portable kernel forced, on the system's 3.0
# (symbol interposition) and on sid's 3.6 (DT_SYMBOLIC: the method route),
# where sshd runs through 3.6's unpacked loader and libcrypto.so.3. sshd runs
# with -r there: a re-exec would start the system's loader and 3.0 again.
# Logins must succeed and the sshd's stats must show the kernel's calls for
# the host-key signatures (1024-bit CRT halves) and the 2048-bit DH. Needs
# root (privilege separation). About 15 s.

load "../bats/helpers/common"
load "../bats/helpers/sshd"
load "versions"

setup() {
    sshd_setup
}

teardown() {
    stop_daemon sshd
}

# sshd_on VER: starts sshd on VER's libcrypto as daemon "sshd" (port in
# $D/sshd.port, stats in $D/sshd.stats) and checks which libcrypto it mapped.
sshd_on() {
    version_use "$1"
    SSHD=/usr/sbin/sshd
    if [ -n "$V_TREE" ]; then
        SSHD=$D/sshd-on-$1
        printf '#!/bin/sh\nexec %s /usr/sbin/sshd -r "$@"\n' "${V_RUN[*]}" >"$SSHD"
        chmod 0755 "$SSHD"
    fi
    sshd_keys "$D"
    sshd_start sshd "$D" 2048 CRYPTOSHIM_KERNELS=portable
    local maps=/proc/$(cat "$BATS_FILE_TMPDIR/sshd.pid")/maps
    grep -o '/[^ ]*libcrypto[^ ]*' "$maps" | sort -u
    if [ -n "$V_TREE" ]; then
        grep -q "$V_TREE/root/.*libcrypto" "$maps"
    fi
}

# logins VER: one login per key exchange; the sshd's portable calls grow.
logins() {
    sshd_on "$1"
    local port kex before after
    port=$(cat "$D/sshd.port")
    for kex in diffie-hellman-group14-sha256 diffie-hellman-group-exchange-sha256; do
        before=$(stats_sum "$D/sshd.stats" portable)
        run $(ssh_cmd "$D" "$port" "$kex" rsa-sha2-256) echo "hello $kex"
        echo "$output"
        [ "$status" -eq 0 ]
        [ "$output" = "hello $kex" ]
        after=$(stats_sum "$D/sshd.stats" portable)
        echo "$kex: sshd portable calls $before -> $after"
        [ "$after" -gt "$before" ]
    done
    stats_rows "$D/sshd.stats"
    [ "$(stats_sum "$D/sshd.stats" portable '*' 1024)" -gt 0 ]
    [ "$(stats_sum "$D/sshd.stats" portable '*' 2048)" -gt 0 ]
    daemon_alive sshd
    ! grep -Ei 'fatal|segfault|sandbox' "$D/sshd.log"
}

@test "3.0: sshd RSA-2048 host key, group14-sha256 and group-exchange: portable kernel calls" { logins 30; }
@test "3.6: sshd RSA-2048 host key, group14-sha256 and group-exchange: portable kernel calls" { logins 36; }
