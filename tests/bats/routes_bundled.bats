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
    STATS=$BATS_TEST_TMPDIR/s.stats
}

# under_shim [VAR=VALUE...]: runs the program on the bundled library with the
# shim preloaded (portable kernel, stats in $STATS) and the given environment,
# shows its output and checks every step passed.
under_shim() {
    run env "$@" CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" \
        "$PROG" "$BUNDLED"
    echo "$output"
    keygen_lines_ok
}

@test "bundled libcrypto without the shim: RSA and EC keygen work (reference)" {
    run "$PROG" "$BUNDLED"
    keygen_lines_ok
}

@test "bundled libcrypto under the shim: RSA and EC keygen work, modexp served by the shim" {
    under_shim
    [ "$(stats_sum "$STATS" portable)" -gt 0 ]
}

@test "bundled libcrypto under the shim with CRYPTOSHIM_DISABLE=1: everything works, no kernel call" {
    under_shim CRYPTOSHIM_DISABLE=1
    [ "$(stats_sum "$STATS" portable)" -eq 0 ]
}

@test "info --lib names the bundled libcrypto, its version and the symbol route" {
    run "$CLI" info --lib "$BUNDLED"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$BUNDLED"* ]]
    echo "$output" | grep -A2 -F "$BUNDLED" | grep -q 'modexp route *symbols'
}
