#!/usr/bin/env bats
# Configuration the provider must respect: default_properties = fips=yes
# (no fips provider here) fails exactly as without the shim, and an
# explicit -propquery provider=default is served by the default provider.

load mldsa_helpers

setup() {
    mldsa_require
    cd "$BATS_TEST_TMPDIR"
    printf 'the quick brown fox\n' >msg
    fips_conf
    ossl genpkey -algorithm ML-DSA-44 -pkeyopt hexseed:$SEED -out k.pem
}

# same_failure CMD...: CMD fails with the same status and the same OpenSSL
# errors with and without the shim, and no ML-DSA call reached our kernels.
same_failure() {
    fips_same_failure "$@"
    # Failures reported without an error queue (speed): same message.
    [ -s ref.err ] || diff ref.out got.out
    [ "$(calls st mldsa_keygen)" -eq 0 ]
    [ "$(calls st mldsa_sign)" -eq 0 ]
    [ "$(calls st mldsa_verify)" -eq 0 ]
}

@test "fips=yes: key generation fails as without the shim" {
    same_failure genpkey -algorithm ML-DSA-44 -out new.pem
}

@test "fips=yes: signing fails as without the shim" {
    same_failure pkeyutl -sign -rawin -inkey k.pem -in msg -out s.sig
}

@test "fips=yes: speed fails as without the shim" {
    same_failure speed -seconds 1 ML-DSA-44
}

@test "-propquery provider=default: the default provider serves" {
    shim st genpkey -propquery provider=default -algorithm ML-DSA-44 -pkeyopt hexseed:$SEED -out got.pem
    cmp k.pem got.pem
    shim st pkeyutl -propquery provider=default -sign -rawin -inkey k.pem -in msg -out s.sig
    shim st pkeyutl -propquery provider=default -verify -rawin -inkey k.pem -in msg -sigfile s.sig
    [ "$(calls st mldsa_keygen)" -eq 0 ]
    [ "$(calls st mldsa_sign)" -eq 0 ]
    [ "$(calls st mldsa_verify)" -eq 0 ]
    # Same commands without the query do reach the shim (the check above
    # is not vacuous).
    shim st2 pkeyutl -sign -rawin -inkey k.pem -in msg -out s2.sig
    [ "$(calls st2 mldsa_sign)" -ge 1 ]
}

@test "a configuration's own optional default_properties are merged with ours" {
    cat >props.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
alg_section = evp_properties
[evp_properties]
default_properties = ?cryptoshim.test=yes
CNF
    OPENSSL_CONF=props.cnf shim st pkeyutl -sign -rawin -inkey k.pem -in msg \
        -pkeyopt deterministic:1 -out got.sig
    ossl pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt deterministic:1 -out ref.sig
    cmp ref.sig got.sig
    [ "$(calls st mldsa_sign 44)" -ge 1 ]
}
