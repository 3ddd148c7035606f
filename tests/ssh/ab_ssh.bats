#!/usr/bin/env bats
# The A/B harness on SSH: `cryptoshim ab ssh` with two sshd instances (RSA-3072
# host key, group16 and group exchange), a few logins each, outputs complete
# and every KEXDH_INIT/GEX_INIT-to-reply measured on the wire. About 30 s.

load "../bats/helpers/common"
load "../bats/helpers/ab"

setup() {
    ab_setup "sshd privilege separation and tcpdump need root" tcpdump gnuplot ssh
    [ -x /usr/sbin/sshd ] || skip "openssh-server not installed"
}

@test "ab ssh: RSA-3072 host key, group16, 8 logins per side" {
    ab_run "$OUT" ssh --hostkey 3072 --kex group16 -n 8 --block 4
    ab_check "$OUT" 8
    grep -q 'shim calls in B (operation kernel bits calls): mod_exp' "$OUT/report.md"
    grep -q 'diffie-hellman-group16-sha512' "$OUT/report.md"
}

@test "ab ssh: group exchange, portable kernel in B, haswell preset" {
    ab_run "$OUT" ssh --hostkey 2048 --kex gex --hostkey-alg rsa-sha2-256 -n 4 --block 2 \
        --kernels portable --cpu haswell
    ab_check "$OUT" 4
    grep -Eq 'shim calls in B.*portable' "$OUT/report.md"
}
