#!/usr/bin/env bats
# The modexp differential suite through libcrypto's real API under every
# OpenSSL version (1.1.1, 3.0, 3.5, 3.6, 4.0): RSA-2048/3072/4096 PKCS#1 v1.5
# signing and verification, DH derivation in ffdhe2048 and ffdhe3072, DSA-2048
# and DSA-3072 signing and verification (tests/versions/modexp_api.c), with
# each usable kernel forced (CRYPTOSHIM_KERNELS) and with the default policy.
# RSA signatures and DH secrets must be byte-identical to the same version
# without the shim; DSA signatures are randomized, so each side verifies the
# other's and every verification result (good, corrupted, wrong message) must
# agree. A forced kernel must show calls of its own in the stats: on 3.6 and
# 4.0 (DT_SYMBOLIC, OPENSSL_4.0.0) that needs the default-method route.
# Keys duplicated and parameters copied must work as in stock (the method
# route must not make libcrypto see them as foreign keys). CRYPTOSHIM_DISABLE=1
# must leave every version exactly stock. About 60 s.

load "../bats/helpers/common"
load "versions"

setup_file() {
    cs_env
    local d=$BATS_FILE_TMPDIR/keys b g p
    mkdir -p "$d"
    # Fresh keys each run, made by the system's OpenSSL without the shim.
    for b in 2048 3072 4096; do
        env -u LD_PRELOAD openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:$b \
            -out "$d/rsa$b.pem" 2>/dev/null
    done
    for g in 2048 3072; do
        for p in a b; do
            env -u LD_PRELOAD openssl genpkey -algorithm DH -pkeyopt group:ffdhe$g \
                -out "$d/dh$g$p.pem" 2>/dev/null
        done
    done
    for b in 2048 3072; do
        env -u LD_PRELOAD openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:$b \
            -pkeyopt dsa_paramgen_q_bits:256 -out "$d/dsaparam$b.pem" 2>/dev/null
        env -u LD_PRELOAD openssl genpkey -paramfile "$d/dsaparam$b.pem" -out "$d/dsa$b.pem" 2>/dev/null
    done
}

setup() {
    cs_env
    cs_require
    K=$BATS_FILE_TMPDIR/keys
    KEYS=(rsa:$K/rsa2048.pem rsa:$K/rsa3072.pem rsa:$K/rsa4096.pem
          dh:$K/dh2048a.pem:$K/dh2048b.pem dh:$K/dh3072a.pem:$K/dh3072b.pem
          dsa:$K/dsa2048.pem dsa:$K/dsa3072.pem)
    T=$BATS_TEST_TMPDIR
}

# reference: stock run twice: the second verifies the first's DSA signatures
# ($T/stock0.dsa); its transcript $T/stock.txt is what every run must print.
reference() {
    stock "$V_DRIVER" -o "$T/stock0.dsa" "${KEYS[@]}" >/dev/null
    stock "$V_DRIVER" -i "$T/stock0.dsa" "${KEYS[@]}" >"$T/stock.txt"
}

# compare NAME ENV...: the driver with the shim and ENV verifies stock's DSA
# signatures and must print stock's transcript; stock verifies the shim run's
# DSA signatures and must print it too. Stats go to $T/NAME.stats.
compare() {
    local name=$1; shift
    if ! shimmed "$@" CRYPTOSHIM_STATS="$T/$name.stats" -- \
            "$V_DRIVER" -i "$T/stock0.dsa" -o "$T/$name.dsa" "${KEYS[@]}" >"$T/$name.txt"; then
        echo "$name: the driver failed under the shim"
        return 1
    fi
    if ! cmp "$T/stock.txt" "$T/$name.txt"; then
        echo "$name: transcript differs from stock:"
        diff "$T/stock.txt" "$T/$name.txt" | head -10 | cut -c1-160
        return 1
    fi
    if ! stock "$V_DRIVER" -i "$T/$name.dsa" "${KEYS[@]}" >"$T/$name.stockcheck.txt" ||
        ! cmp -s "$T/stock.txt" "$T/$name.stockcheck.txt"; then
        echo "$name: stock does not accept the shim's DSA signatures as its own"
        diff "$T/stock.txt" "$T/$name.stockcheck.txt" | head -10 | cut -c1-160
        return 1
    fi
}

# differential VER [ENV...]: the default policy and every usable kernel
# forced, with ENV (e.g. CRYPTOSHIM_ROUTE=method) in every shim run.
differential() {
    version_use "$1"
    local ver=$1 k bad=0 rows
    shift
    reference
    compare default "$@" || bad=1
    echo "default policy: $(stats_rows "$T/default.stats" | awk -F'\t' '{print $2}' | sort | uniq -c | xargs)"
    for k in $(usable_kernels); do
        compare "$k" "$@" CRYPTOSHIM_KERNELS="$k" || bad=1
        rows=$(stats_sum "$T/$k.stats" "$k")
        echo "$k: $rows calls to the kernel"
        if [ "$rows" -eq 0 ]; then
            echo "$k forced: no call reached it on $(version_name "$ver"); stats:"
            stats_rows "$T/$k.stats"
            bad=1
        fi
    done
    [ "$bad" -eq 0 ]
}

# copies VER [ENV...]: keys duplicated (EVP_PKEY_dup) and parameters copied
# into an empty key (EVP_PKEY_copy_parameters, as a TLS 1.3 client does for an
# FFDHE key share), then used: same transcript as stock, with the default
# policy and with the portable kernel forced. libcrypto refuses both for a
# key whose RSA/DH/DSA method is not its own (ossl_*_is_foreign), which a
# route through default methods must not cause.
copies() {
    version_use "$1"
    shift
    stock "$V_DRIVER" -c "${KEYS[@]}" >"$T/stock.txt"
    local env
    for env in CRYPTOSHIM_KERNELS= CRYPTOSHIM_KERNELS=portable; do
        if ! shimmed "$@" "$env" -- "$V_DRIVER" -c "${KEYS[@]}" >"$T/shim.txt" ||
            ! cmp -s "$T/stock.txt" "$T/shim.txt"; then
            echo "with $* $env: differs from stock:"
            diff "$T/stock.txt" "$T/shim.txt" | grep -v ' sign ' | head -12
            return 1
        fi
    done
}

# disabled VER: CRYPTOSHIM_DISABLE=1 with a kernel forced: stock transcript,
# no kernel rows.
disabled() {
    version_use "$1"
    reference
    compare disabled CRYPTOSHIM_DISABLE=1 CRYPTOSHIM_KERNELS=portable
    kernel_rows "$T/disabled.stats"
    [ -z "$(kernel_rows "$T/disabled.stats")" ]
}

@test "1.1.1: RSA, DH, DSA through the API equal stock under every kernel and the default policy" { differential 11; }
@test "3.0: RSA, DH, DSA through the API equal stock under every kernel and the default policy" { differential 30; }
@test "3.0 with the method route (CRYPTOSHIM_ROUTE=method): RSA, DH, DSA through the API equal stock under every kernel" { differential 30 CRYPTOSHIM_ROUTE=method; }
@test "3.5: RSA, DH, DSA through the API equal stock under every kernel and the default policy" { differential 35; }
@test "3.6: RSA, DH, DSA through the API equal stock under every kernel and the default policy" { differential 36; }
@test "4.0: RSA, DH, DSA through the API equal stock under every kernel and the default policy" { differential 40; }

@test "1.1.1: copied parameters behave as stock" { copies 11; }
@test "3.0: duplicated keys and copied parameters behave as stock" { copies 30; }
@test "3.0 with the method route: duplicated keys and copied parameters behave as stock" { copies 30 CRYPTOSHIM_ROUTE=method; }
@test "3.5: duplicated keys and copied parameters behave as stock" { copies 35; }
@test "3.6: duplicated keys and copied parameters behave as stock" { copies 36; }
@test "4.0: duplicated keys and copied parameters behave as stock" { copies 40; }

@test "1.1.1: CRYPTOSHIM_DISABLE=1 is exactly stock, no kernel rows" { disabled 11; }
@test "3.0: CRYPTOSHIM_DISABLE=1 is exactly stock, no kernel rows" { disabled 30; }
@test "3.5: CRYPTOSHIM_DISABLE=1 is exactly stock, no kernel rows" { disabled 35; }
@test "3.6: CRYPTOSHIM_DISABLE=1 is exactly stock, no kernel rows" { disabled 36; }
@test "4.0: CRYPTOSHIM_DISABLE=1 is exactly stock, no kernel rows" { disabled 40; }
