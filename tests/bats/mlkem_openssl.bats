#!/usr/bin/env bats
# ML-KEM through the openssl command of OpenSSL 3.5 with the shim preloaded,
# against the same command alone: keys from a seed (the same PEM, read back
# by OpenSSL alone), encapsulation with ikme and decapsulation (the same
# bytes), speed with kernel calls counted, and the configurations that keep
# stock: default_properties = fips=yes fails as without the shim,
# -propquery provider=default is served by the default provider,
# CRYPTOSHIM_DISABLE=1 passes everything through.

load mldsa_helpers

MLKEM_KERNELS=${MLKEM_KERNELS:-avx512,avx2,portable}
KSEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
IKME=6c6f6f6b2061742074686520737461727320616e642074686520736561202121

setup() {
    mldsa_require
    cd "$BATS_TEST_TMPDIR"
    export CRYPTOSHIM_KERNELS=$MLKEM_KERNELS
    fips_conf
}

# no_calls STATS: no ML-KEM call reached our kernels.
no_calls() {
    [ "$(calls "$1" mlkem_keygen)" -eq 0 ]
    [ "$(calls "$1" mlkem_encaps)" -eq 0 ]
    [ "$(calls "$1" mlkem_decaps)" -eq 0 ]
}

@test "genpkey from a seed: the same PEM for ML-KEM-512/768/1024, read back by OpenSSL alone" {
    for ps in 512 768 1024; do
        ossl genpkey -algorithm ML-KEM-$ps -pkeyopt hexseed:$KSEED -out ref$ps.pem
        shim st genpkey -algorithm ML-KEM-$ps -pkeyopt hexseed:$KSEED -out got$ps.pem
        cmp ref$ps.pem got$ps.pem
        ossl pkey -in got$ps.pem -pubout -out pub$ps.pem
        ossl pkey -in got$ps.pem -text -noout | grep -q "ML-KEM-$ps"
        [ "$(calls st mlkem_keygen "$ps")" -ge 1 ]
    done
}

@test "pkeyutl -encap with ikme and -decap: the same ciphertext and secret both ways" {
    for ps in 512 768 1024; do
        ossl genpkey -algorithm ML-KEM-$ps -pkeyopt hexseed:$KSEED -out k.pem
        ossl pkey -in k.pem -pubout -out p.pem
        ossl pkeyutl -encap -pubin -inkey p.pem -pkeyopt hexikme:$IKME -out ct.ref -secret ss.ref
        shim st pkeyutl -encap -pubin -inkey p.pem -pkeyopt hexikme:$IKME -out ct.got -secret ss.got
        cmp ct.ref ct.got
        cmp ss.ref ss.got
        shim st pkeyutl -decap -inkey k.pem -in ct.ref -secret ss.dec
        cmp ss.ref ss.dec
        # a corrupted ciphertext: the same implicit-rejection secret
        printf '\001' | dd of=ct.ref bs=1 seek=5 conv=notrunc 2>/dev/null
        ossl pkeyutl -decap -inkey k.pem -in ct.ref -secret rej.ref
        shim st pkeyutl -decap -inkey k.pem -in ct.ref -secret rej.got
        cmp rej.ref rej.got
        ! cmp -s rej.ref ss.ref
        [ "$(calls st mlkem_encaps "$ps")" -ge 1 ]
        [ "$(calls st mlkem_decaps "$ps")" -ge 2 ]
    done
}

@test "openssl speed ML-KEM-768 runs on our kernels" {
    shim st speed -seconds 1 ML-KEM-768 >speed.out 2>&1
    grep -q ML-KEM-768 speed.out
    [ "$(calls st mlkem_encaps 768)" -ge 100 ]
    [ "$(calls st mlkem_decaps 768)" -ge 100 ]
}

# same_failure CMD...: CMD under fips=yes fails with the same status and the
# same errors with and without the shim, and no ML-KEM call reached us.
same_failure() {
    fips_same_failure "$@"
    no_calls st
}

@test "fips=yes: ML-KEM key generation and encapsulation fail as without the shim" {
    ossl genpkey -algorithm ML-KEM-768 -pkeyopt hexseed:$KSEED -out k.pem
    ossl pkey -in k.pem -pubout -out p.pem
    same_failure genpkey -algorithm ML-KEM-768 -out new.pem
    same_failure pkeyutl -encap -pubin -inkey p.pem -out ct -secret ss
}

@test "-propquery provider=default and CRYPTOSHIM_DISABLE=1: the default provider serves" {
    ossl genpkey -algorithm ML-KEM-768 -pkeyopt hexseed:$KSEED -out ref.pem
    shim st genpkey -propquery provider=default -algorithm ML-KEM-768 -pkeyopt hexseed:$KSEED -out got.pem
    cmp ref.pem got.pem
    ossl pkey -in ref.pem -pubout -out p.pem
    shim st pkeyutl -propquery provider=default -encap -pubin -inkey p.pem -out ct -secret ss
    shim st pkeyutl -propquery provider=default -decap -inkey ref.pem -in ct -secret ss2
    cmp ss ss2
    no_calls st
    CRYPTOSHIM_DISABLE=1 shim st2 genpkey -algorithm ML-KEM-768 -out off.pem
    no_calls st2
}
