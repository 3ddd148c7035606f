#!/usr/bin/env bats
# DSA verification through the interposed BN_mod_exp2_mont: Wycheproof's
# dsa_2048_256_sha256 verify vectors give the same outcome with the shim
# (each kernel with an exp2 entry forced, and the built-in policy) as
# without it, and `openssl dgst -sign/-verify` with DSA keys works under the
# shim, counted as mod_exp2 calls. 2-10 s (two DSA parameter sets are made).

load "helpers/common"

setup_file() {
    cs_env
    cs_ready || return 0
    local d=$BATS_FILE_TMPDIR bits
    for bits in 1024 2048; do
        openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:$bits \
            -out "$d/p$bits.pem" 2>/dev/null
        openssl genpkey -paramfile "$d/p$bits.pem" -out "$d/k$bits.pem"
        openssl pkey -in "$d/k$bits.pem" -pubout -out "$d/pub$bits.pem"
    done
    head -c 3000 /dev/urandom >"$d/msg"
}

setup() {
    cs_env
    cs_require
    DRIVER=$CS_BUILD/tests/e2e/dsa_verify_driver
    [ -x "$DRIVER" ] || { echo "missing $DRIVER (make tests-build)" >&2; return 1; }
    D=$BATS_FILE_TMPDIR
    STATS=$BATS_TEST_TMPDIR/dsa.stats
    CASES=$VECTORS/wycheproof/dsa_2048_256_sha256_test.json
}

# usable KERNEL: true if `cryptoshim info` lists KERNEL as usable here.
usable() {
    "$CLI" info | grep -E "^  $1 " | grep -q ' usable$'
}

@test "Wycheproof DSA verify vectors: libcrypto alone matches the expected results" {
    [ -s "$CASES" ] || skip "Wycheproof DSA vectors missing"
    run "$DRIVER" "$CASES"
    [ "$status" -eq 0 ]
    [[ "${lines[-1]}" == "366 cases, 0 mismatch" ]]
}

@test "Wycheproof DSA verify vectors: same outcomes through every exp2 kernel and the policy" {
    [ -s "$CASES" ] || skip "Wycheproof DSA vectors missing"
    "$DRIVER" "$CASES" >"$D/stock.out"
    local k n=0
    for k in x86_64-ifma x86_64-fma x86_64-avx2 x86_64-adx x86_64-mulx default; do
        local envs=(CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM")
        if [ "$k" != default ]; then
            usable "$k" || continue
            envs+=(CRYPTOSHIM_KERNELS="$k")
        fi
        rm -f "$STATS"
        env "${envs[@]}" "$DRIVER" "$CASES" >"$D/shim.out"
        diff "$D/stock.out" "$D/shim.out"
        stats_rows "$STATS"
        if [ "$k" != default ]; then
            [ "$(stats_sum "$STATS" "$k" mod_exp2 2048)" -gt 80 ]
        fi
        n=$((n + 1))
    done
    [ "$n" -gt 1 ]
}

@test "openssl dgst: DSA signatures made and checked under the shim, counted as mod_exp2" {
    local bits
    for bits in 1024 2048; do
        rm -f "$STATS"
        CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" openssl dgst -sha256 \
            -sign "$D/k$bits.pem" -out "$D/s$bits.sig" "$D/msg"
        # Verified under the shim, and by stock OpenSSL.
        run env CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" openssl dgst -sha256 \
            -verify "$D/pub$bits.pem" -signature "$D/s$bits.sig" "$D/msg"
        [ "$status" -eq 0 ]
        [[ "$output" == *"Verified OK"* ]]
        openssl dgst -sha256 -verify "$D/pub$bits.pem" -signature "$D/s$bits.sig" "$D/msg"
        stats_rows "$STATS"
        [ "$(stats_sum "$STATS" '*' mod_exp2 "$bits")" -ge 1 ]
        if [ "$bits" = 2048 ] && [ -n "$("$CLI" info | grep -E '^  mod_exp2 ' | awk '{print $5}' | grep -v libcrypto)" ]; then
            [ "$(stats_sum "$STATS" '!libcrypto' mod_exp2 2048)" -ge 1 ]
        fi
    done
}

@test "openssl dgst: a tampered message fails verification under the shim" {
    openssl dgst -sha256 -sign "$D/k2048.pem" -out "$D/t.sig" "$D/msg"
    cp "$D/msg" "$D/msg2"
    printf 'x' >>"$D/msg2"
    run env LD_PRELOAD="$SHIM" openssl dgst -sha256 -verify "$D/pub2048.pem" \
        -signature "$D/t.sig" "$D/msg2"
    [ "$status" -ne 0 ]
    [[ "$output" == *"Verification failure"* ]]
}

@test "OpenSSL 1.1.1 (make openssl11): DSA verification through mod_exp2 at OPENSSL_1_1_0" {
    local o11
    need_tree o11 11 bin/openssl
    "$o11" dgst -sha256 -sign "$D/k2048.pem" -out "$D/o11.sig" "$D/msg"
    run env CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" "$o11" dgst -sha256 \
        -verify "$D/pub2048.pem" -signature "$D/o11.sig" "$D/msg"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Verified OK"* ]]
    stats_rows "$STATS"
    [ "$(stats_sum "$STATS" '*' mod_exp2 2048)" -ge 1 ]
}
