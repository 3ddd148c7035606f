#!/usr/bin/env bats
# ML-DSA through build/openssl35/bin/openssl with the shim preloaded: same
# keys and signatures as OpenSSL alone, interoperable hedged signatures,
# rejection of corrupted ones, expanded-key-only PKCS#8, speed and stats.

load mldsa_helpers

setup() {
    mldsa_require
    cd "$BATS_TEST_TMPDIR"
    printf 'the quick brown fox\n' >msg
}

@test "genpkey with hexseed gives the same key as OpenSSL alone" {
    for ps in 44 65 87; do
        ossl genpkey -algorithm ML-DSA-$ps -pkeyopt hexseed:$SEED -out ref$ps.pem
        shim st genpkey -algorithm ML-DSA-$ps -pkeyopt hexseed:$SEED -out got$ps.pem
        cmp ref$ps.pem got$ps.pem
        [ "$(calls st mldsa_keygen $ps)" -ge 1 ]
    done
}

@test "keys made with the shim are read back by OpenSSL alone" {
    for ps in 44 65 87; do
        shim st genpkey -algorithm ML-DSA-$ps -out k.pem
        ossl pkey -in k.pem -pubout -out pub.pem
        ossl pkey -in k.pem -noout -check
        [ "$(calls st mldsa_keygen $ps)" -ge 1 ]
    done
}

@test "deterministic signatures with a context string are byte-identical" {
    for ps in 44 65 87; do
        ossl genpkey -algorithm ML-DSA-$ps -pkeyopt hexseed:$SEED -out k.pem
        opts=(-pkeyopt deterministic:1 -pkeyopt context-string:cryptoshim-test)
        ossl pkeyutl -sign -rawin -inkey k.pem -in msg "${opts[@]}" -out ref.sig
        shim st pkeyutl -sign -rawin -inkey k.pem -in msg "${opts[@]}" -out got.sig
        cmp ref.sig got.sig
        [ "$(calls st mldsa_sign $ps)" -ge 1 ]
        # Without a context string too.
        ossl pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt deterministic:1 -out ref2.sig
        shim st pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt deterministic:1 -out got2.sig
        cmp ref2.sig got2.sig
    done
}

@test "hedged signatures verify across the shim both ways" {
    for ps in 44 65 87; do
        ossl genpkey -algorithm ML-DSA-$ps -out k.pem
        shim st pkeyutl -sign -rawin -inkey k.pem -in msg -out a.sig
        shim st pkeyutl -sign -rawin -inkey k.pem -in msg -out a2.sig
        fails cmp -s a.sig a2.sig # hedged: fresh randomness each time
        ossl pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile a.sig
        ossl pkeyutl -sign -rawin -inkey k.pem -in msg -out b.sig
        shim st pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile b.sig
        [ "$(calls st mldsa_sign $ps)" -ge 2 ]
        [ "$(calls st mldsa_verify $ps)" -ge 1 ]
        # With a context string: must match on both sides.
        shim st pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt context-string:ab -out c.sig
        ossl pkeyutl -verify -rawin -inkey k.pem -in msg -pkeyopt context-string:ab -sigfile c.sig
        fails ossl pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile c.sig
    done
}

@test "corrupted signatures and messages are rejected" {
    for ps in 44 65 87; do
        ossl genpkey -algorithm ML-DSA-$ps -out k.pem
        ossl pkeyutl -sign -rawin -inkey k.pem -in msg -out good.sig
        shim st pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile good.sig
        len=$(stat -c %s good.sig)
        for off in 0 100 $((len / 2)) $((len - 1)); do
            cp good.sig bad.sig
            b=$(od -An -tu1 -j $off -N1 good.sig | tr -d ' ')
            printf "$(printf '\\%03o' $(((b ^ 1) & 255)))" |
                dd of=bad.sig bs=1 seek=$off conv=notrunc status=none
            fails shim st pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile bad.sig
        done
        head -c $((len - 1)) good.sig >short.sig
        fails shim st pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile short.sig
        printf 'the quick brown fox.\n' >other
        fails shim st pkeyutl -verify -rawin -inkey k.pem -in other -sigfile good.sig
        [ "$(calls st mldsa_verify $ps)" -ge 5 ]
    done
}

@test "a PKCS#8 key with only the expanded private key signs correctly" {
    for ps in 44 65 87; do
        ossl genpkey -algorithm ML-DSA-$ps -out seeded.pem
        ossl pkey -in seeded.pem -out expanded.pem -provparam ml-dsa.output_formats=priv-only
        ossl pkey -in expanded.pem -noout -text >text
        grep -q '^priv:' text
        fails grep -q '^seed:' text
        ossl pkeyutl -sign -rawin -inkey expanded.pem -in msg -pkeyopt deterministic:1 -out ref.sig
        shim st pkeyutl -sign -rawin -inkey expanded.pem -in msg -pkeyopt deterministic:1 -out got.sig
        cmp ref.sig got.sig
        ossl pkeyutl -verify -rawin -inkey seeded.pem -in msg -sigfile got.sig
        [ "$(calls st mldsa_sign $ps)" -ge 1 ]
    done
}

@test "openssl speed ML-DSA runs on our kernels" {
    shim st speed -seconds 1 ML-DSA-44 ML-DSA-65 ML-DSA-87 >speed.out 2>&1
    grep -q 'ML-DSA-87' speed.out
    for ps in 44 65 87; do
        [ "$(calls st mldsa_keygen $ps)" -ge 1 ]
        [ "$(calls st mldsa_sign $ps)" -ge 1 ]
        [ "$(calls st mldsa_verify $ps)" -ge 1 ]
    done
}

@test "loads as an ordinary provider module (-provider-path, -provider)" {
    ossl genpkey -algorithm ML-DSA-65 -pkeyopt hexseed:$SEED -out k.pem
    ossl pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt deterministic:1 -out ref.sig
    ossl pkeyutl -sign -rawin -inkey k.pem -in msg -pkeyopt deterministic:1 -out got.sig \
        -provider-path "$CS_BUILD" -provider cryptoshim -provider default \
        -propquery '?provider=cryptoshim'
    cmp ref.sig got.sig
    ossl list -signature-algorithms -provider-path "$CS_BUILD" -provider cryptoshim |
        grep -q 'ML-DSA-44.*@ cryptoshim'
}

@test "CRYPTOSHIM_DISABLE=1 leaves ML-DSA to OpenSSL" {
    ossl genpkey -algorithm ML-DSA-44 -out k.pem
    CRYPTOSHIM_DISABLE=1 shim st pkeyutl -sign -rawin -inkey k.pem -in msg -out s.sig
    ossl pkeyutl -verify -rawin -inkey k.pem -in msg -sigfile s.sig
    [ "$(calls st mldsa_sign)" -eq 0 ]
}

@test "dormant in OpenSSL 3.0 processes" {
    command -v openssl >/dev/null || skip "no system openssl"
    LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS=st openssl genpkey -algorithm ED25519 -out ed.pem
    LD_PRELOAD="$SHIMLIB" openssl pkeyutl -sign -rawin -inkey ed.pem -in msg -out ed.sig
    openssl pkeyutl -verify -rawin -inkey ed.pem -in msg -sigfile ed.sig
    [ "$(calls st mldsa_keygen)" -eq 0 ]
}

@test "external mu (mu:1) and raw message encoding sign the same bytes" {
    ossl genpkey -algorithm ML-DSA-65 -pkeyopt hexseed:$SEED -out k.pem
    head -c 64 /dev/zero | tr '\0' 'm' >mu.bin
    for opt in "mu:1" "message-encoding:0"; do
        ossl pkeyutl -sign -rawin -inkey k.pem -in mu.bin -pkeyopt deterministic:1 \
            -pkeyopt "$opt" -out ref.sig
        shim st pkeyutl -sign -rawin -inkey k.pem -in mu.bin -pkeyopt deterministic:1 \
            -pkeyopt "$opt" -out got.sig
        cmp ref.sig got.sig
        ossl pkeyutl -verify -rawin -inkey k.pem -in mu.bin -pkeyopt "$opt" -sigfile got.sig
    done
    [ "$(calls st mldsa_sign 65)" -ge 2 ]
}
