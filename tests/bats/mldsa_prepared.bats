#!/usr/bin/env bats
# The provider's per-key prepared ML-DSA state (computed on a key's first
# sign/verify, kept in the key) through OpenSSL 3.5's EVP API: repeated
# signing, dup, export/import, public-only verification and threads sharing
# one key all give the same deterministic signature as OpenSSL alone.

load mldsa_helpers

DRIVER="$CS_BUILD/tests/e2e/mldsa_prepared_driver"

setup() {
    mldsa_require
    [ -x "$DRIVER" ] || { echo "missing $DRIVER (make tests-build)" >&2; return 1; }
    export OPENSSL_CONF="$CS_BUILD/openssl35/root/usr/lib/ssl/openssl.cnf"
    export OPENSSL_MODULES="$CS_BUILD/openssl35/root/usr/lib/x86_64-linux-gnu/ossl-modules"
}

@test "prepared keys: sign, dup, export/import, threads give OpenSSL's signatures" {
    for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
        stats="$BATS_TEST_TMPDIR/stats-$alg"
        plain=$(run35 -u LD_PRELOAD -u CRYPTOSHIM_STATS -- "$alg")
        withshim=$(run35 LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS="$stats" -- "$alg")
        echo "$withshim"
        ! grep -q '^not ok' <<<"$plain"
        ! grep -q '^not ok' <<<"$withshim"
        [ "$(grep -c '^ok' <<<"$withshim")" -eq 7 ]
        [ "$(grep '^sig ' <<<"$plain")" = "$(grep '^sig ' <<<"$withshim")" ]
        [ "$(calls "$stats" mldsa_sign)" -gt 30 ]
        [ "$(calls "$stats" mldsa_verify)" -gt 30 ]
    done
}
