#!/usr/bin/env bats
# `cryptoshim calibrate` writes a policy file the shim accepts. Only the
# 1024-bit class is measured, with a tiny budget: the decisions themselves
# are not checked (timing never decides a test), only the file's form.

setup() {
    CLI=$CS_BUILD/cryptoshim
    [ -x "$CLI" ] || skip "cryptoshim not built"
    cd "$BATS_TEST_TMPDIR"
}

@test "calibrate writes a policy file that the shim loads" {
    run "$CLI" calibrate -t 0.05 -b 1024 -o policy.txt
    [ "$status" -eq 0 ]
    [ -s policy.txt ]
    # Every rule line: op min max kernel, and each op ends with a catch-all.
    bad=$(grep -v '^#' policy.txt | sed 's/#.*//' | awk 'NF && (NF != 4 || $2 > $3)' | wc -l)
    [ "$bad" -eq 0 ]
    grep -q '^mod_exp 8193 16384 libcrypto' policy.txt
    grep -q '^mod_exp_consttime 8193 16384 libcrypto' policy.txt
    grep -q '^mod_exp2 8193 16384 libcrypto' policy.txt
    [ "$(wc -c <policy.txt)" -lt 8192 ]
    run env CRYPTOSHIM_POLICY="$PWD/policy.txt" "$CLI" info
    [ "$status" -eq 0 ]
    [[ "$output" == *"file policy"* ]]
}

@test "calibrate rejects unknown options" {
    run "$CLI" calibrate -x
    [ "$status" -eq 2 ]
}
