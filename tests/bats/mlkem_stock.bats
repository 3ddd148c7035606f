#!/usr/bin/env bats
# ML-KEM through the shim's provider against stock OpenSSL 3.5, 3.6 and 4.0:
# tests/bats/helpers/mlkem_stock_driver runs once without and once with the
# shim preloaded, on the same pseudo-random seeds and messages (a fresh run
# seed each time, printed for reproduction; MLKEM_SEED=N to repeat one), and
# the two runs must print the same lines: keys from seeds, "ikme"
# encapsulations, decapsulations (implicit rejection included), hostile keys
# and ciphertexts, buffer and parameter edge cases, each with its outcome and
# first error; the shim's run must be served by the cryptoshim provider.
# The shimmed runs force each ML-KEM implementation in turn with
# CRYPTOSHIM_KERNELS (MLKEM_KERNELS: avx512, avx2, portable); by default
# the provider offers ML-KEM only with an implementation measured faster
# than libcrypto's (the last test).

load mldsa_helpers

DRIVER="$CS_BUILD/tests/e2e/mlkem_stock_driver"
DRIVER40="$CS_BUILD/tests/e2e/mlkem_stock_driver40" # linked against 4.0's libcrypto.so.4
MLKEM_KERNELS=${MLKEM_KERNELS:-avx512,avx2,portable}

# drive VER LIB STATS ARGS: the driver on OpenSSL VER's libraries (the
# tree's bin/run: its loader, which still reads LD_PRELOAD, configuration and
# modules), LIB preloaded unless "none", counting into STATS (empty: no
# counting), CRYPTOSHIM_KERNELS=$KERNELS.
drive() {
    local ver=$1 lib=$2 stats=$3 driver=$DRIVER
    [ "$ver" = 40 ] && driver=$DRIVER40
    shift 3
    ossl_drive "$ver" "$lib" "$driver" CRYPTOSHIM_STATS="$stats" \
        CRYPTOSHIM_KERNELS="${KERNELS-$MLKEM_KERNELS}" -- "$@"
}

# both VER GROUP: GROUP for every parameter set without the shim into
# stock.txt, then with it once per implementation of MLKEM_KERNELS into
# shim.KERNEL.txt; every implementation's lines must be stock's, and the
# shim's provider must have served every key (an implementation this CPU
# cannot run leaves ML-KEM to stock: noted and skipped).
both() {
    local ver=$1 group=$2 alg kern ran=0 rc
    : >stock.txt
    for alg in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
        drive "$ver" none "" "$alg" "$group" "$RUNSEED" >>stock.txt
    done
    grep -q '^# provider default' stock.txt
    for kern in ${MLKEM_KERNELS//,/ }; do
        : >"shim.$kern.txt"
        for alg in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
            KERNELS=$kern drive "$ver" "$SHIMLIB" "" "$alg" "$group" "$RUNSEED" >>"shim.$kern.txt"
        done
        rc=0
        stock_agrees stock.txt "shim.$kern.txt" "OpenSSL $ver, $kern, group $group" || rc=$?
        if [ "$rc" = 2 ]; then
            echo "# $kern does not run on this CPU: skipped" >&3
            continue
        fi
        [ "$rc" = 0 ]
        ran=$((ran + 1))
    done
    [ "$ran" -ge 1 ]
}

setup() {
    stock_setup "$DRIVER" MLKEM_SEED
}

@test "keygen from random seeds d||z, ikme encapsulation, decapsulation and implicit rejection: stock's bytes" {
    each_version both kat
}

@test "hostile keys (t or s coefficients >= q, wrong H(ek), mismatched seed/dk/ek, sizes), key checks, dup, params: stock's outcome and errors" {
    each_version both key
}

@test "hostile ciphertexts (every wrong length, zeros, ones), small and large buffers, ikme lengths and types: stock's outcome and errors" {
    each_version both kem
}

# hybrid VER: the hybrid groups' ML-KEM halves run on our kernels (by
# default, where one measured faster than libcrypto's runs): each
# ML-KEM parameter set's hybrid run makes 2 keygens through the hybrid
# keymgmt beside the driver's own 2.
hybrid_counted() {
    local ver=$1 ps
    for ps in 768 1024; do
        rm -f "stats$ver.$ps"
        drive "$ver" "$SHIMLIB" "$PWD/stats$ver.$ps" "ML-KEM-$ps" mlx "$RUNSEED" >/dev/null
        local n
        n=$(calls "$PWD/stats$ver.$ps" mlkem_keygen "$ps")
        if [ "$n" != 4 ]; then
            echo "OpenSSL $ver: $n ML-KEM-$ps keygens on our kernels, expected 4 (2 by the hybrids)" >&2
            return 1
        fi
    done
}

@test "hybrids X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024, X448MLKEM1024: stock's outcome, their ML-KEM half on our kernels" {
    each_version both mlx
    KERNELS=avx512,avx2,portable each_version hybrid_counted
}

@test "by default ML-KEM is served only by an implementation measured faster than libcrypto's (never the portable C)" {
    rm -f default.st
    KERNELS= drive 35 "$SHIMLIB" "$PWD/default.st" ML-KEM-768 kat "$RUNSEED" 1 >default.txt
    if grep -q '^# provider cryptoshim' default.txt; then
        # served: by a kernel of the measured list, never the portable C
        [ "$(calls default.st mlkem_keygen 768)" -ge 1 ]
        ! "$CS_BUILD/cryptoshim" stats default.st | grep -q "^mlkem_.*portable"
    else
        grep -q '^# provider default' default.txt
        [ "$(calls default.st mlkem_keygen 768)" -eq 0 ]
    fi
}
