#!/usr/bin/env bats
# The ML-KEM provider under valgrind memcheck in OpenSSL 3.5: the
# mlkem_stock_driver groups (keys from seeds, encapsulation, decapsulation,
# hostile keys and ciphertexts, every failure path, the hybrids) for
# ML-KEM-768 with the shim preloaded (the avx2 kernel: valgrind cannot run
# AVX-512): no memcheck error and nothing definitely lost (a key or context
# leaked on any path fails it). 3.5's loader made readable to valgrind by
# `make tests-build` (tests/bats/helpers/openssl35_vg.sh).

load mldsa_helpers

VG="$CS_BUILD/openssl35-vg"

setup() {
    mldsa_require
    command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; return 1; }
    [ -f "$VG/.missing" ] && skip "$(cat "$VG/.missing")"
    [ -x "$VG/ld-linux-x86-64.so.2" ] || { echo "missing $VG (make tests-build)" >&2; return 1; }
    [ -x "$CS_BUILD/tests/e2e/mlkem_stock_driver" ] || { echo "missing mlkem_stock_driver" >&2; return 1; }
}

# vg35 ARGS: the driver on 3.5's libraries under memcheck, shim preloaded.
vg35() {
    local lib="$CS_BUILD/openssl35/root/usr/lib/x86_64-linux-gnu"
    env LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS= CRYPTOSHIM_KERNELS=avx2,portable \
        OPENSSL_CONF="$CS_BUILD/openssl35/root/usr/lib/ssl/openssl.cnf" \
        OPENSSL_MODULES="$lib/ossl-modules" \
        valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
        "$VG/ld-linux-x86-64.so.2" --library-path "$lib" "$CS_BUILD/tests/e2e/mlkem_stock_driver" "$@"
}

@test "valgrind: ML-KEM-768 keys, KEM, hostile inputs and hybrids through the provider, no error, nothing definitely lost" {
    local g
    for g in kat key kem mlx; do
        run vg35 ML-KEM-768 "$g" 7 2
        echo "$output" | grep -v '^ML-KEM\|^#' || true
        [ "$status" -eq 0 ]
        echo "$output" | grep -q '^# provider cryptoshim'
    done
}
