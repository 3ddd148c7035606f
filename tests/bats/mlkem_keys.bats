#!/usr/bin/env bats
# ML-KEM keys in and out of the shim's provider against stock OpenSSL 3.5,
# 3.6 and 4.0 (issue 34): every import path (seed, dk, ek and their
# combinations, consistent or not) with stock's outcome and errors, and
# keys written (PKCS#8) byte for byte as stock writes them under every
# ml-kem.* provider parameter; each ML-KEM table forced in turn
# (KEYS_TABLES, default avx512,avx2,portable; a table this CPU cannot run
# is skipped). Driver: tests/bats/helpers/mlkem_mldsa_keys_driver.c.

load mlkem_mldsa_keys

setup() {
    keys_setup
}

@test "issue 34 (1): a seed beside a dk that is not the seed's (s one off, s = q, another key's s or ek) is refused with stock's error" {
    keys_refused "ML-KEM-512 ML-KEM-768 ML-KEM-1024" "57:158" s.first+1 s.last+1 s.first=q s.other ek.other
}

@test "issue 34 (2): genpkey and pkey under -provparam ml-kem.prefer_seed=no (and the other ml-kem.* parameters) write stock's bytes" {
    keys_cli_bytes "ML-KEM-512 ML-KEM-768 ML-KEM-1024" 64 mlkem_keygen ml-kem.prefer_seed=no ml-kem.retain_seed=no \
        ml-kem.output_formats=priv-only ml-kem.output_formats=seed-only
}

@test "issue 34 (3): under CRYPTOSHIM_DISABLE=1 info says nothing is served (every table and CPU mask, and for 3.5, 3.6, 4.0)" {
    local env ver lib
    for env in "" CRYPTOSHIM_KERNELS=avx2 CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_KERNELS=avx512 \
        CRYPTOSHIM_KERNELS=x86_64-adx CRYPTOSHIM_CPU=-avx2 CRYPTOSHIM_CPU=-avx512f; do
        run env $env CRYPTOSHIM_DISABLE=1 "$CS_BUILD/cryptoshim" info
        [ "$status" -eq 0 ]
        keys_info_disabled
    done
    # each release's libcrypto loaded beside the CLI, under that tree's loader
    for ver in $(keys_versions); do
        lib=$(ls "$CS_BUILD/openssl$ver/root/usr/lib/x86_64-linux-gnu/"libcrypto.so.[34])
        run env CRYPTOSHIM_DISABLE=1 "$CS_BUILD/openssl$ver/bin/run" "$CS_BUILD/cryptoshim" info --lib "$lib"
        [ "$status" -eq 0 ]
        keys_info_disabled
        echo "$output" | grep -q 'ML-DSA route     none: CRYPTOSHIM_DISABLE=1'
    done
    # and without it, a table serves
    run "$CS_BUILD/cryptoshim" info
    echo "$output" | grep -E '^  ML-DSA-65 ' | grep -qE 'avx512|avx2|portable'
}

@test "sweep: every seed/dk/ek combination (each part absent, consistent, or inconsistent) x every ml-kem.* configuration: stock's outcome, errors, key and written bytes" {
    keys_cli_bytes "ML-KEM-512 ML-KEM-768 ML-KEM-1024" 64 mlkem_keygen ml-kem.prefer_seed=no ml-kem.retain_seed=no \
        ml-kem.output_formats=priv-only ml-kem.output_formats=seed-only
}
