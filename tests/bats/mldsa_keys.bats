#!/usr/bin/env bats
# ML-DSA keys in and out of the shim's provider against stock OpenSSL 3.5,
# 3.6 and 4.0 (issue 34): every import path (seed, expanded private key,
# public key and their combinations, consistent or not) with stock's
# outcome and every error stock leaves, and keys written (PKCS#8) byte for
# byte as stock writes them under every ml-dsa.* provider parameter; each
# ML-DSA table forced in turn (KEYS_TABLES). Driver:
# tests/bats/helpers/mlkem_mldsa_keys_driver.c.

load mlkem_mldsa_keys

setup() {
    keys_setup
}

@test "a seed beside an expanded key that is not the seed's: stock's errors (invalid key, then failed to generate key)" {
    keys_refused "ML-DSA-44 ML-DSA-65 ML-DSA-87" "57:158,57:121" rho.flip K.flip tr.flip s1.range t0.flip other
}

@test "genpkey and pkey under -provparam ml-dsa.prefer_seed=no (and the other ml-dsa.* parameters) write stock's bytes" {
    keys_cli_bytes "ML-DSA-44 ML-DSA-65 ML-DSA-87" 32 mldsa_keygen ml-dsa.prefer_seed=no ml-dsa.retain_seed=no \
        ml-dsa.output_formats=priv-only ml-dsa.output_formats=seed-only
}

@test "sweep: every seed/sk/pk combination (each part absent, consistent, or inconsistent) x every ml-dsa.* configuration: stock's outcome, errors, key and written bytes" {
    keys_compare "ML-DSA-44 ML-DSA-65 ML-DSA-87" all
}
