#!/usr/bin/env bats
# X25519 and Ed25519 through the shim's provider against stock OpenSSL 3.0
# (the system's), 3.5, 3.6 and 4.0: tests/bats/helpers/c25519_driver runs
# once without and once with the shim preloaded on the same pseudo-random
# keys and messages (a fresh run seed each time, printed; C25519_SEED=N to
# repeat one), and the two runs must print the same lines: public keys,
# shared secrets (special peer values: low order, u >= p, top bit set),
# signatures byte for byte, verification of flipped, S+L and non-canonical
# signatures, instances and context strings (3.5+), key import checks and
# errors, parameters, PEM/DER of keys the shim holds, an Ed25519-signed
# certificate, the Wycheproof X25519 and Ed25519 vectors. Every key of the
# shim's run must be held by the cryptoshim provider. Each curve
# implementation of C25519_KERNELS (default x86_64-adx,x86_64-mulx,portable,
# c25519:x86_64-ifma: the prefix keeps the big-number x86_64-ifma out) is
# forced in turn; one this CPU cannot run is skipped (by default the
# provider offers the curves only where one was measured faster than
# libcrypto's).

load mldsa_helpers

DRIVER="$CS_BUILD/tests/e2e/c25519_driver"
DRIVER40="$CS_BUILD/tests/e2e/c25519_driver40"
C25519_KERNELS=${C25519_KERNELS:-x86_64-adx,x86_64-mulx,portable,c25519:x86_64-ifma}
KERN=portable

# drive VER LIB STATS ARGS: the driver on OpenSSL VER (30: the system's),
# LIB preloaded unless "none", counting into STATS (empty: no counting).
drive() {
    local ver=$1 lib=$2 stats=$3 driver=$DRIVER
    shift 3
    [ "$ver" = 40 ] && driver=$DRIVER40
    ossl_drive "$ver" "$lib" "$driver" CRYPTOSHIM_STATS="$stats" CRYPTOSHIM_KERNELS="$KERN" -- "$@"
}

# have VER: the OpenSSL VER tree (and its driver) is there.
have() {
    ossl_have "$1" "$DRIVER40"
}

# both VER GROUP: stock's lines and the shim's must be the same, every key
# of the shim's run held by our provider.
both() {
    local ver=$1 group=$2
    local in=/dev/null
    drive "$ver" none "" "$group" "$RUNSEED" <"$in" >stock.txt
    drive "$ver" "$SHIMLIB" "" "$group" "$RUNSEED" <"$in" >shim.txt
    grep -q '^# provider default' stock.txt
    local rc=0
    stock_agrees stock.txt shim.txt "OpenSSL $ver, $KERN, group $group" || rc=$?
    if [ "$rc" = 2 ]; then
        echo "# OpenSSL $ver: no curve implementation $KERN here: skipped" >&3
        SKIPPED=$((SKIPPED + 1))
        return 0
    fi
    [ "$rc" = 0 ]
    RAN=$((RAN + 1))
}

# each_run GROUP: both() on 3.0, then 3.5, 3.6 and 4.0 when present,
# for each implementation of C25519_KERNELS.
each_run() {
    local ver
    RAN=0 SKIPPED=0
    for KERN in ${C25519_KERNELS//,/ }; do
        for ver in $(ossl_versions "$DRIVER40" none 30 35 36 40); do
            both "$ver" "$1"
        done
    done
    [ "$RAN" -ge 1 ] || skip "no curve implementation served ($C25519_KERNELS)"
}

setup() {
    stock_setup "$DRIVER" C25519_SEED
}

@test "X25519: public values, shared secrets with random and special peers (low order, u >= p, top bit), stock's refusals" {
    each_run x25519
}

@test "X25519/Ed25519 key generation (clamped X25519 keys, public keys as the default provider derives), group and DHKEM ikm parameters" {
    each_run xgen
}

@test "Ed25519: signatures byte for byte, flipped/S+L/non-canonical signatures refused, instances and context strings (3.5+), declined variants" {
    each_run ed25519
}

@test "key import checks and errors, parameters and lists, validation, equality, encoded public keys" {
    each_run import
}

@test "PEM/DER of keys the shim holds, PEM keys decoded by the default provider used with our operations, an Ed25519 certificate" {
    each_run pem
}

@test "Wycheproof x25519_test.json (518) and ed25519_test.json (151) through EVP: stock's answers" {
    each_run vectors
    grep -qx '# vectors 669' stock.txt
}

# The provider's calls are counted: an Ed25519 signature made through
# EVP_PKEY_new_raw_private_key then EVP_DigestSign (OpenSSH 10.3's way)
# reaches our kernel on every version.
@test "stats: the OpenSSH pattern (raw private key, one-shot DigestSign) counts ed25519_pubkey and ed25519_sign on our kernel" {
    local ver n ran=0
    KERN=${C25519_KERNELS%%,*}
    for ver in 30 35 36 40; do
        have "$ver" || continue
        rm -f "stats$ver"
        drive "$ver" "$SHIMLIB" "$PWD/stats$ver" ed25519 "$RUNSEED" >out.txt
        grep -q '^# provider cryptoshim' out.txt || continue
        n=$(calls "$PWD/stats$ver" ed25519_sign)
        [ "$n" -ge 30 ] || { echo "OpenSSL $ver: $n ed25519_sign calls on our kernels" >&2; return 1; }
        n=$(calls "$PWD/stats$ver" ed25519_pubkey)
        [ "$n" -ge 30 ] || { echo "OpenSSL $ver: $n ed25519_pubkey calls" >&2; return 1; }
        n=$(calls "$PWD/stats$ver" ed25519_verify)
        [ "$n" -ge 30 ] || { echo "OpenSSL $ver: $n ed25519_verify calls" >&2; return 1; }
        ran=$((ran + 1))
    done
    [ "$ran" -ge 1 ] || skip "no curve implementation served ($C25519_KERNELS)"
}
