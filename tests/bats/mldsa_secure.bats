#!/usr/bin/env bats
# Secrets in the application's secure heap: with CRYPTO_secure_malloc_init
# called by the application, the provider's private key material (seed,
# expanded key, the prepared signing state's NTT(s1), NTT(s2), NTT(t0), K)
# comes from it, through the core's CRYPTO_secure_zalloc, and all of it is
# given back (wiped) when the keys are freed. Stock 3.5 is run too for the
# record: it keeps ML-DSA keys in ordinary memory.

load mldsa_helpers

DRIVER="$CS_BUILD/tests/e2e/mldsa_secure_driver"

setup() {
    mldsa_require
    [ -x "$DRIVER" ] || { echo "missing $DRIVER (make tests-build)" >&2; return 1; }
}

@test "ML-DSA keys and signing state in the application's secure heap, all given back" {
    for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
        out=$(run35 LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS= -- "$alg")
        echo "$out"
        grep -q '^# provider cryptoshim' <<<"$out"
        ! grep -q '^not ok' <<<"$out"
        [ "$(grep -c '^ok' <<<"$out")" -eq 4 ]
        run35 -u LD_PRELOAD -- "$alg" | sed -n 's/^.*ok 1 - \(.*\) in the secure heap/# stock 3.5: \1/p' >&3 || true
    done
}
