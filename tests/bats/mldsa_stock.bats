#!/usr/bin/env bats
# The ML-DSA provider against stock OpenSSL (3.5, and 3.6 / 4.0 when their
# trees exist): tests/bats/helpers/mldsa_stock_driver walks corrupted
# expanded keys, key checks, parameter edge cases and failure points, once
# without and once with the shim preloaded, and the two runs must agree:
# the same outcome everywhere, the same output where it is deterministic,
# and an error left on the queue wherever stock leaves one.

load mldsa_helpers

DRIVER="$CS_BUILD/tests/e2e/mldsa_stock_driver"
DRIVER40="$CS_BUILD/tests/e2e/mldsa_stock_driver40" # linked against 4.0's libcrypto.so.4

# drive VER LIB ALG [GROUP]: the driver on OpenSSL VER's libraries (the
# tree's bin/run: its loader, which still reads LD_PRELOAD, configuration and
# modules), LIB preloaded unless "none".
drive() {
    local ver=$1 lib=$2 driver=$DRIVER
    [ "$ver" = 40 ] && driver=$DRIVER40
    shift 2
    ossl_drive "$ver" "$lib" "$driver" CRYPTOSHIM_STATS= -- "$@"
}

# both VER GROUP: runs GROUP for every parameter set with and without the
# shim into stock.txt and shim.txt; checks the shim's provider served it.
both() {
    local ver=$1 group=$2 alg
    : >stock.txt
    : >shim.txt
    for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
        drive "$ver" none "$alg" "$group" >>stock.txt
        drive "$ver" "$SHIMLIB" "$alg" "$group" >>shim.txt
    done
    grep -q '^# provider default' stock.txt
    if grep -v '^# provider cryptoshim' shim.txt | grep -q '^# provider'; then
        echo "the shim's provider did not serve ML-DSA:" >&2
        grep '^# provider' shim.txt >&2
        return 1
    fi
}

# same_outcome FIELDS: the lines of stock.txt and shim.txt agree on the
# given cut(1) fields (2 = point, 3 = rc, 5 = output hash).
same_outcome() {
    diff <(grep -v '^#' stock.txt | cut -d' ' -f1,"$1") <(grep -v '^#' shim.txt | cut -d' ' -f1,"$1")
}

# missing_errors: points where stock leaves an error and the shim none.
missing_errors() {
    awk 'NR == FNR { if ($4 != "err=none") s[$1 " " $2] = 1; next }
         ($1 " " $2) in s && $4 == "err=none" { print; n++ }
         END { exit n > 0 }' stock.txt shim.txt
}

setup() {
    stock_setup "$DRIVER"
}

# Each group: the same lines as stock (point, outcome, first error's
# library and reason, output hash), and an error wherever stock leaves one.
group_check() {
    both "$1" "$GROUP"
    missing_errors
    same_outcome 2,3,4,5
}

@test "corrupted expanded private keys (t0, s1/s2 range, tr, pk mismatch) and key checks: stock's outcome and errors" {
    GROUP=key each_version group_check
}

@test "parameters (empty seed, keygen seed lengths, message-encoding, deterministic types, context-string types): stock's outcome" {
    GROUP=param each_version group_check
}

@test "failure points (sizes, types, selections, public-only signing, malformed signatures): an error wherever stock leaves one" {
    GROUP=err each_version group_check
}
