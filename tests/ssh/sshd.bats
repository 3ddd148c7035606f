#!/usr/bin/env bats
# Debian's sshd with the shim preloaded (portable kernel forced): public-key
# logins with RSA-2048/3072/4096 host keys (rsa-sha2-256 and rsa-sha2-512) and
# each finite-field key exchange (group14, group16, group18, group exchange),
# scp of a 10 MB file, 50 connections 10 at a time, and stats that show the
# sshd processes' kernel calls. Needs root (privilege separation). About 60 s.

load "../bats/helpers/common"
load "../bats/helpers/sshd"

setup_file() {
    cs_env
    cs_ready || return 0
    [ "$(id -u)" -eq 0 ] || return 0
    command -v "$SSHD" >/dev/null || return 0
    local d=$BATS_FILE_TMPDIR bits
    sshd_keys "$d"
    for bits in 2048 3072 4096; do
        sshd_start "sshd$bits" "$d" "$bits" CRYPTOSHIM_KERNELS=portable
    done
}

teardown_file() {
    local bits
    for bits in 2048 3072 4096; do
        stop_daemon "sshd$bits"
    done
}

setup() {
    sshd_setup
    D=$BATS_FILE_TMPDIR
}

# login BITS KEX ALG: one login to the BITS host-key sshd that runs a command.
login() {
    local bits=$1 kex=$2 alg=$3 port
    port=$(cat "$D/sshd$bits.port")
    run $(ssh_cmd "$D" "$port" "$kex" "$alg") echo "hello $bits $kex"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "hello $bits $kex" ]
}

# logins BITS KEX: a login with each RSA signature algorithm; the sshd's
# shim-kernel calls grow.
logins() {
    local bits=$1 kex=$2 before after alg
    before=$(stats_sum "$D/sshd$bits.stats" portable)
    for alg in rsa-sha2-256 rsa-sha2-512; do
        login "$bits" "$kex" "$alg"
    done
    after=$(stats_sum "$D/sshd$bits.stats" portable)
    echo "sshd$bits portable calls: $before -> $after"
    [ "$after" -gt "$before" ]
}

@test "RSA-2048 host key, diffie-hellman-group14-sha256" { logins 2048 diffie-hellman-group14-sha256; }
@test "RSA-2048 host key, diffie-hellman-group16-sha512" { logins 2048 diffie-hellman-group16-sha512; }
@test "RSA-2048 host key, diffie-hellman-group18-sha512" { logins 2048 diffie-hellman-group18-sha512; }
@test "RSA-2048 host key, diffie-hellman-group-exchange-sha256" { logins 2048 diffie-hellman-group-exchange-sha256; }
@test "RSA-3072 host key, diffie-hellman-group14-sha256" { logins 3072 diffie-hellman-group14-sha256; }
@test "RSA-3072 host key, diffie-hellman-group16-sha512" { logins 3072 diffie-hellman-group16-sha512; }
@test "RSA-3072 host key, diffie-hellman-group18-sha512" { logins 3072 diffie-hellman-group18-sha512; }
@test "RSA-3072 host key, diffie-hellman-group-exchange-sha256" { logins 3072 diffie-hellman-group-exchange-sha256; }
@test "RSA-4096 host key, diffie-hellman-group14-sha256" { logins 4096 diffie-hellman-group14-sha256; }
@test "RSA-4096 host key, diffie-hellman-group16-sha512" { logins 4096 diffie-hellman-group16-sha512; }
@test "RSA-4096 host key, diffie-hellman-group18-sha512" { logins 4096 diffie-hellman-group18-sha512; }
@test "RSA-4096 host key, diffie-hellman-group-exchange-sha256" { logins 4096 diffie-hellman-group-exchange-sha256; }

@test "stats: host-key signatures and DH of every group counted under portable" {
    local bits half
    for bits in 2048 3072 4096; do
        stats_rows "$D/sshd$bits.stats"
        half=$((bits / 2))
        # RSA signing with the host key: CRT halves (or the whole modulus).
        [ $(( $(stats_sum "$D/sshd$bits.stats" portable '*' "$half") + \
              $(stats_sum "$D/sshd$bits.stats" portable '*' "$bits") )) -gt 0 ]
        # The DH groups: 2048 (group14), 4096 (group16), 8192 (group18).
        [ "$(stats_sum "$D/sshd$bits.stats" portable '*' 8192)" -gt 0 ]
        [ "$(stats_sum "$D/sshd$bits.stats" portable '*' 2048)" -gt 0 ]
    done
}

@test "scp a 10 MB file up and back: checksums equal" {
    local port src=$BATS_TEST_TMPDIR/src.bin back=$BATS_TEST_TMPDIR/back.bin
    local remote=$BATS_TEST_TMPDIR/remote.bin
    port=$(cat "$D/sshd3072.port")
    head -c 10485760 /dev/urandom >"$src"
    local opts=(-F /dev/null -P "$port" -i "$D/id_user" -o IdentitiesOnly=yes -o BatchMode=yes
                -o UserKnownHostsFile="$D/known_hosts" -o StrictHostKeyChecking=yes
                -o KexAlgorithms=diffie-hellman-group16-sha512 -o HostKeyAlgorithms=rsa-sha2-512)
    run timeout 120 scp -q "${opts[@]}" "$src" "$(id -un)@127.0.0.1:$remote"
    [ "$status" -eq 0 ]
    run timeout 120 scp -q "${opts[@]}" "$(id -un)@127.0.0.1:$remote" "$back"
    [ "$status" -eq 0 ]
    [ "$(sha256sum <"$src")" = "$(sha256sum <"$back")" ]
    [ "$(sha256sum <"$src")" = "$(sha256sum <"$remote")" ]
}

@test "50 connections, 10 at a time: zero failures" {
    local port cmd ok
    port=$(cat "$D/sshd2048.port")
    cmd=$(ssh_cmd "$D" "$port" diffie-hellman-group14-sha256 rsa-sha2-256)
    run bash -c "seq 50 | xargs -P 10 -I{} $cmd echo conn-{} 2>&1"
    echo "$output" | grep -v '^conn-' || true
    ok=$(echo "$output" | grep -c '^conn-[0-9]*$')
    [ "$ok" -eq 50 ]
}

@test "the sshd processes stayed up and logged no fatal error" {
    local bits
    for bits in 2048 3072 4096; do
        daemon_alive "sshd$bits"
        ! grep -Ei 'fatal|segfault|sandbox' "$D/sshd$bits.log"
    done
}
