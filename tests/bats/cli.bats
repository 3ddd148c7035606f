#!/usr/bin/env bats
# build/cryptoshim: info, selftest, run and stats as a user meets them. A few seconds.

load "helpers/common"

setup() {
    cs_env
    cs_require
}

@test "info names the CPU features, libcrypto and a kernel for every size" {
    run "$CLI" info
    [ "$status" -eq 0 ]
    output_has "libcrypto          OpenSSL 3." "mod_exp_consttime" "portable" "ML-DSA-65"
}

@test "info follows CRYPTOSHIM_KERNELS and CRYPTOSHIM_DISABLE" {
    run env CRYPTOSHIM_KERNELS=portable "$CLI" info
    [ "$status" -eq 0 ]
    echo "$output" | grep -E '^  mod_exp_consttime' | grep -q 'portable'
    # Disabled: every cell of the dispatch rows says libcrypto.
    run env CRYPTOSHIM_DISABLE=1 "$CLI" info
    [ "$status" -eq 0 ]
    [ -z "$(echo "$output" | grep -E '^  mod_exp' | tr -s ' ' '\n' |
        grep -vE '^(mod_exp|mod_exp_consttime|mod_exp_consttime_x2|mod_exp2|libcrypto|)$')" ]
}

@test "selftest passes for every kernel and ML-DSA implementation this CPU runs" {
    run "$CLI" selftest
    [ "$status" -eq 0 ]
    output_has "ok   portable" "ok   mldsa/portable" "selftest passed"
}

@test "run appends the shim to an existing LD_PRELOAD and stats counts the calls" {
    local stats=$BATS_TEST_TMPDIR/run.stats
    run env LD_PRELOAD=libc.so.6 CRYPTOSHIM_STATS="$stats" CRYPTOSHIM_KERNELS=portable \
        "$CLI" run -- sh -c 'echo "$LD_PRELOAD"; openssl speed -seconds 1 rsa2048 >/dev/null 2>&1'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "libc.so.6:$(readlink -f "$SHIM")" ]
    run "$CLI" stats "$stats"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(printf 'operation\tkernel\tbits\tcalls')" ]
    echo "$output" | grep -qP '^mod_exp\tportable\t2048\t[1-9]'
}

@test "stats rejects a file that is not a stats file" {
    echo hello >"$BATS_TEST_TMPDIR/not.stats"
    run "$CLI" stats "$BATS_TEST_TMPDIR/not.stats"
    [ "$status" -ne 0 ]
}

@test "a stats file that is a symlink is not followed" {
    ln -s "$BATS_TEST_TMPDIR/target" "$BATS_TEST_TMPDIR/link.stats"
    env CRYPTOSHIM_STATS="$BATS_TEST_TMPDIR/link.stats" LD_PRELOAD="$SHIM" openssl version >/dev/null
    [ ! -e "$BATS_TEST_TMPDIR/target" ]
}
