#!/usr/bin/env bats
# The route each real newer OpenSSL takes, through Debian's own builds
# (`make openssl36 openssl40`, unpacked under build/; each test skips naming
# the target when its build is absent). 3.6 is linked DT_SYMBOLIC and 4.0
# has every symbol at OPENSSL_4.0.0 (also DT_SYMBOLIC): neither library's own
# calls reach the shim's exports, so both take the method route, installed
# at the application's first trigger call; ML-DSA goes through the provider
# (its trigger exported at OPENSSL_4.0.0 too). Expected: RSA-2048 signatures
# and ffdhe2048 shared secrets byte-identical to the same build without the
# shim, DSA-2048 signatures made under the shim verify with stock and the
# other way round, ML-DSA-65 keys from a seed identical; the kernel calls
# show in stats. About 30 s with both builds present.

load "helpers/common"

setup() {
    cs_env
    cs_require
    T=$BATS_TEST_TMPDIR
    STATS=$T/v.stats
}

# use_version NN: OSSL (the build's openssl), LIBCRYPTO (file name) or skip.
use_version() {
    need_tree OSSL "$1" bin/openssl
    RUN=$CS_BUILD/openssl$1/bin/run
    case $1 in 36) LIBNAME=libcrypto.so.3 ;; 40) LIBNAME=libcrypto.so.4 ;; esac
}

shim() {
    CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" "$OSSL" "$@"
}

route_note() {
    "$CLI" stats "$STATS" | grep "^# route $LIBNAME:"
}

rsa_case() {
    use_version "$1"
    "$OSSL" genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T/k.pem" 2>/dev/null
    head -c 1000 /dev/urandom >"$T/msg"
    "$OSSL" dgst -sha256 -sign "$T/k.pem" -out "$T/a.sig" "$T/msg"
    shim dgst -sha256 -sign "$T/k.pem" -out "$T/b.sig" "$T/msg"
    cmp "$T/a.sig" "$T/b.sig"
    # The CRT halves: one paired call (bn/rsa_crt.c), no single ones.
    [ "$(stats_sum "$STATS" portable mod_exp_consttime_x2 1024)" -ge 1 ]
    [ "$(stats_sum "$STATS" portable mod_exp_consttime 1024)" -eq 0 ]
    route_note | grep -Eq 'modexp method \([0-9.]+: rsa rsa-crt dh dsa from'
    rm -f "$STATS"
    CRYPTOSHIM_DISABLE=1 shim dgst -sha256 -sign "$T/k.pem" -out "$T/c.sig" "$T/msg"
    cmp "$T/a.sig" "$T/c.sig"
    [ "$(stats_sum "$STATS" portable)" -eq 0 ]
}

dh_case() {
    use_version "$1"
    "$OSSL" genpkey -algorithm DH -pkeyopt group:ffdhe2048 -out "$T/a.pem"
    "$OSSL" genpkey -algorithm DH -pkeyopt group:ffdhe2048 -out "$T/b.pem"
    "$OSSL" pkey -in "$T/b.pem" -pubout -out "$T/b.pub"
    "$OSSL" pkeyutl -derive -inkey "$T/a.pem" -peerkey "$T/b.pub" -out "$T/s1"
    shim pkeyutl -derive -inkey "$T/a.pem" -peerkey "$T/b.pub" -out "$T/s2"
    cmp "$T/s1" "$T/s2"
    [ "$(stats_sum "$STATS" portable '*' 2048)" -ge 1 ]
}

dsa_case() {
    use_version "$1"
    "$OSSL" genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:2048 -out "$T/p.pem" 2>/dev/null
    "$OSSL" genpkey -paramfile "$T/p.pem" -out "$T/d.pem"
    head -c 1000 /dev/urandom >"$T/msg"
    shim dgst -sha256 -sign "$T/d.pem" -out "$T/s.sig" "$T/msg"
    "$OSSL" dgst -sha256 -prverify "$T/d.pem" -signature "$T/s.sig" "$T/msg"
    "$OSSL" dgst -sha256 -sign "$T/d.pem" -out "$T/t.sig" "$T/msg"
    shim dgst -sha256 -prverify "$T/d.pem" -signature "$T/t.sig" "$T/msg"
    [ "$(stats_sum "$STATS" '*' mod_exp2 2048)" -ge 1 ]
    [ "$(stats_sum "$STATS" portable mod_exp_consttime 2048)" -ge 1 ]
}

mldsa_case() {
    use_version "$1"
    local seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
    "$OSSL" genpkey -algorithm ML-DSA-65 -pkeyopt hexseed:$seed -out "$T/ref.pem"
    CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" "$OSSL" genpkey -algorithm ML-DSA-65 \
        -pkeyopt hexseed:$seed -out "$T/got.pem"
    cmp "$T/ref.pem" "$T/got.pem"
    [ "$(stats_sum "$STATS" '*' mldsa_keygen 65)" -ge 1 ]
    route_note | grep -q 'ml-dsa provider'
}

@test "3.6: RSA-2048 signatures byte-identical through the method route; DISABLE stays stock" { rsa_case 36; }
@test "3.6: ffdhe2048 shared secret byte-identical through the method route" { dh_case 36; }
@test "3.6: DSA-2048 sign and verify across shim and stock, both exponentiations counted" { dsa_case 36; }
@test "3.6: ML-DSA-65 key from a seed identical, through the provider" { mldsa_case 36; }
@test "4.0: RSA-2048 signatures byte-identical through the method route; DISABLE stays stock" { rsa_case 40; }
@test "4.0: ffdhe2048 shared secret byte-identical through the method route" { dh_case 40; }
@test "4.0: DSA-2048 sign and verify across shim and stock, both exponentiations counted" { dsa_case 40; }
@test "4.0: ML-DSA-65 key from a seed identical, through the provider (trigger at OPENSSL_4.0.0)" { mldsa_case 40; }

@test "4.0: info run under 4.0's loader names libcrypto.so.4, DT_SYMBOLIC, the method and provider routes" {
    use_version 40
    local lib=$CS_BUILD/openssl40/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4
    run "$RUN" "$CLI" info --lib "$lib"
    [ "$status" -eq 0 ]
    echo "$output" | grep -A6 -F "$lib" | grep -q 'OpenSSL 4\.'
    echo "$output" | grep -A6 -F "$lib" | grep -q 'modexp route *method'
    echo "$output" | grep -A6 -F "$lib" | grep -q 'ML-DSA route *provider'
}
