# sshd helpers for tests/ssh, in the manner of OpenSSH's regress suite: keys
# and an sshd_config generated in a temporary directory, Debian's sshd run in
# the foreground (-D) on 127.0.0.1 and a free high port, privilege separation
# and the seccomp sandbox as shipped, stopped by its own pid.

SSHD=${SSHD:-/usr/sbin/sshd}
SSH_KEXES="diffie-hellman-group14-sha256 diffie-hellman-group16-sha512 diffie-hellman-group18-sha512 diffie-hellman-group-exchange-sha256"

# sshd_keys DIR: Ed25519 user key DIR/id_user and DIR/authorized_keys.
sshd_keys() {
    local dir=$1
    [ -f "$dir/id_user" ] || ssh-keygen -q -t ed25519 -N '' -C cryptoshim-test -f "$dir/id_user"
    cp "$dir/id_user.pub" "$dir/authorized_keys"
}

# sshd_start NAME DIR BITS [ENV...]: generates an RSA-BITS host key and a
# config, starts sshd (with the shim preloaded and ENV) as daemon NAME; the
# port goes to DIR/NAME.port, the stats to DIR/NAME.stats.
sshd_start() {
    local name=$1 dir=$2 bits=$3; shift 3
    local port key=$dir/$name.hostkey conf=$dir/$name.sshd_config
    ssh-keygen -q -t rsa -b "$bits" -N '' -C "$name" -f "$key"
    port=$(free_port)
    echo "$port" >"$dir/$name.port"
    # The config generator is the one the A/B harness uses.
    /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import servers
print(servers.sshd_conf(*sys.argv[2:8], loglevel="VERBOSE"), end="")' "$CS_ROOT/ab" "$port" \
        "$key" "$dir/authorized_keys" "$(echo $SSH_KEXES | tr ' ' ,)" rsa-sha2-256,rsa-sha2-512 \
        "$dir/$name.sshd.pid" >"$conf"
    echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$key.pub")" >>"$dir/known_hosts"
    mkdir -p /run/sshd
    chmod 0755 /run/sshd
    "$SSHD" -t -f "$conf"
    start_daemon "$name" "$dir/$name.log" \
        env "$@" CRYPTOSHIM_STATS="$dir/$name.stats" LD_PRELOAD="$SHIM" "$SSHD" -D -e -f "$conf"
    wait_port "$port"
}

# ssh_cmd DIR PORT KEX HOSTKEYALG: the ssh client command (no shim, no user
# configuration, strict host key checking against DIR/known_hosts).
ssh_cmd() {
    local dir=$1 port=$2 kex=$3 alg=$4
    echo timeout 60 ssh -F /dev/null -p "$port" -i "$dir/id_user" -o IdentitiesOnly=yes \
        -o BatchMode=yes -o UserKnownHostsFile="$dir/known_hosts" -o StrictHostKeyChecking=yes \
        -o KexAlgorithms="$kex" -o HostKeyAlgorithms="$alg" -o ConnectTimeout=10 \
        "$(id -un)@127.0.0.1"
}

# sshd_setup: for setup(): the shim core built, root (privilege separation)
# and Debian's sshd installed, else the test skips; D the test's directory
# (the file's when sshd runs for the whole file: set D after).
sshd_setup() {
    cs_env
    cs_require
    [ "$(id -u)" -eq 0 ] || skip "sshd with privilege separation needs root"
    [ -x "$SSHD" ] || skip "openssh-server not installed"
    D=$BATS_TEST_TMPDIR
}
