#!/usr/bin/env bats
# A libcrypto under another file name, opened RTLD_LOCAL (an auditwheel-style
# bundle: libcrypto-9a1b2c3d.so.3) and used only through dlsym on its handle.
# Its own calls to BN_mod_exp_mont* and EVP_PKEY_CTX_new* still bind to the
# shim's exports, so the shim must find the real functions by what the
# library defines, not by its name (issue 14). Expected: RSA keygen, an RSA
# signature and P-256 keygen work exactly as without the shim, with and
# without CRYPTOSHIM_DISABLE=1, and the forced kernel serves its modexp.
# A few seconds.

load "helpers/common"

setup() {
    cs_env
    cs_require
    need_cmd cc
    PROG=$BATS_TEST_TMPDIR/dlopen_keygen
    cc -O2 -o "$PROG" "$BATS_TEST_DIRNAME/helpers/dlopen_keygen.c" -ldl
    SYSLIB=$(cc -print-file-name=libcrypto.so.3)
    [ -f "$SYSLIB" ] || SYSLIB=$(ldconfig -p | awk '/libcrypto.so.3 .*x86-64|libcrypto.so.3 \(/ {print $NF; exit}')
    [ -f "$SYSLIB" ] || skip "system libcrypto.so.3 not found"
    BUNDLED=$BATS_TEST_TMPDIR/libcrypto-9a1b2c3d.so.3
    cp "$SYSLIB" "$BUNDLED"
}

@test "bundled libcrypto without the shim: RSA and EC keygen work (reference)" {
    run "$PROG" "$BUNDLED"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "rsa keygen ok" ]
    [ "${lines[2]}" = "ec keygen ok" ]
}

@test "bundled libcrypto under the shim: RSA and EC keygen work, modexp served by the shim" {
    local stats=$BATS_TEST_TMPDIR/b.stats
    run env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$stats" LD_PRELOAD="$SHIM" \
        "$PROG" "$BUNDLED"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "rsa keygen ok" ]
    [ "${lines[1]}" = "rsa sign and verify ok" ]
    [ "${lines[2]}" = "ec keygen ok" ]
    [ "$(stats_sum "$stats" portable)" -gt 0 ]
}

@test "bundled libcrypto under the shim with CRYPTOSHIM_DISABLE=1: everything works, no kernel call" {
    local stats=$BATS_TEST_TMPDIR/d.stats
    run env CRYPTOSHIM_DISABLE=1 CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$stats" \
        LD_PRELOAD="$SHIM" "$PROG" "$BUNDLED"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "rsa keygen ok" ]
    [ "${lines[1]}" = "rsa sign and verify ok" ]
    [ "${lines[2]}" = "ec keygen ok" ]
    [ "$(stats_sum "$stats" portable)" -eq 0 ]
}

@test "info --lib names the bundled libcrypto, its version and the symbol route" {
    run "$CLI" info --lib "$BUNDLED"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$BUNDLED"* ]]
    echo "$output" | grep -A2 -F "$BUNDLED" | grep -q 'modexp route *symbols'
}
