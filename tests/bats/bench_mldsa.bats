#!/usr/bin/env bats
# `cryptoshim bench mldsa --fresh-key`: the mode runs and prints its five
# rows (fresh and prepared signing and verification, key preparation) for
# every table this CPU runs. Only the output's shape is checked, never a
# time. A few seconds.

load "helpers/common"

setup() {
    cs_env
    cs_require
    cd "$BATS_TEST_TMPDIR"
}

@test "bench mldsa --fresh-key prints every row of every usable table" {
    run timeout 120 "$CLI" bench mldsa --fresh-key -n 3 -p 44
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    [[ "${lines[0]}" == kernel*set*op*median* ]]
    ! grep -q FAILED <<<"$output"
    local tables
    tables=$(awk 'NR > 1 && $2 == "ML-DSA-44" { print $1 }' <<<"$output" | sort -u)
    [ -n "$tables" ]
    for t in $tables; do
        for op in sign-fresh sign-prep verify-fresh verify-prep prep-pk; do
            grep -Eq "^$t +ML-DSA-44 +$op +[0-9]+ +[0-9]+\$" <<<"$output" ||
                { echo "no $op row for $t"; echo "$output"; return 1; }
        done
    done
    ! grep -q "ML-DSA-65\|ML-DSA-87" <<<"$output"
}

@test "bench mldsa --fresh-key follows CRYPTOSHIM_KERNELS" {
    run timeout 120 env CRYPTOSHIM_KERNELS=portable "$CLI" bench mldsa --fresh-key -n 2 -p 87
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    grep -Eq "^portable +ML-DSA-87 +verify-fresh +[0-9]+" <<<"$output"
    ! grep -Eq "^avx2 +ML-DSA" <<<"$output"
}

@test "bench mldsa refuses an unknown option" {
    run timeout 20 "$CLI" bench mldsa --fresh-keys
    [ "$status" -eq 2 ]
    [[ "$output" == *--fresh-key* ]]
}
