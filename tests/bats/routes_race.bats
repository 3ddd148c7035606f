#!/usr/bin/env bats
# The lazy resolver publishes a libcrypto function table that threads read
# without a lock (issue 14: helgrind saw the table rewritten while readers
# used it). Now a table's fields are written once, under a lock, before its
# ready flag is released with a store-release that readers acquire.
# Expected: 8 threads racing the first resolution all compute correctly, and
# helgrind reports no race in the shim (error exit 99 on any report; reports
# inside libcrypto itself are suppressed). The code before this change fails
# it (two reports). A few seconds.

load "helpers/common"

setup() {
    cs_env
    PROG=$CS_BUILD/tests/routes/route_resolve_race
    [ -x "$PROG" ] || skip "$PROG not built (make tests-build)"
}

@test "8 threads racing the first resolution: correct, and helgrind-clean" {
    need_cmd valgrind
    run valgrind -q --tool=helgrind --error-exitcode=99 \
        --suppressions="$BATS_TEST_DIRNAME/helpers/helgrind_libcrypto.supp" "$PROG"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"ok 1 - 8 threads"* ]]
    [[ "$output" == *"ok 2 - the route scan"* ]]
}
