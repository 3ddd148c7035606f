#!/usr/bin/env bats
# The ML-DSA provider under valgrind memcheck in OpenSSL 3.5: a round trip
# (keygen, sign, verify, dup, export/import, public-only import, threads:
# mldsa_prepared_driver) and every failure point of mldsa_stock_driver
# (corrupted keys, bad parameters, malformed signatures), with the shim
# preloaded: no memory error and 0 bytes definitely lost. 3.5's loader is
# made readable to valgrind by `make tests-build`
# (tests/bats/helpers/openssl35_vg.sh). About 30 s.

load mldsa_helpers

VG="$CS_BUILD/openssl35-vg"

# vg35 DRIVER ARGS: the driver on 3.5's libraries under memcheck, shim preloaded.
vg35() {
    local lib="$CS_BUILD/openssl35/root/usr/lib/x86_64-linux-gnu"
    env LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS= \
        OPENSSL_CONF="$CS_BUILD/openssl35/root/usr/lib/ssl/openssl.cnf" \
        OPENSSL_MODULES="$lib/ossl-modules" \
        valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
        "$VG/ld-linux-x86-64.so.2" --library-path "$lib" "$CS_BUILD/tests/e2e/$1" "${@:2}"
}

setup() {
    mldsa_require
    command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; return 1; }
    [ -f "$VG/.missing" ] && skip "$(cat "$VG/.missing")"
    [ -x "$VG/ld-linux-x86-64.so.2" ] || { echo "missing $VG (make tests-build)" >&2; return 1; }
}

@test "valgrind: provider round trip (sign, verify, dup, export/import, threads), no error, nothing definitely lost" {
    for alg in ML-DSA-44 ML-DSA-87; do
        run vg35 mldsa_prepared_driver "$alg"
        echo "$output"
        [ "$status" -eq 0 ]
        ! grep -q '^not ok' <<<"$output"
    done
}

@test "valgrind: every failure point of the stock walker, no error, nothing definitely lost" {
    run vg35 mldsa_stock_driver ML-DSA-65
    echo "$output" | tail -20
    [ "$status" -eq 0 ]
    grep -q '^# provider cryptoshim' <<<"$output"
    [ "$(grep -c ' rc=' <<<"$output")" -ge 170 ]
}
