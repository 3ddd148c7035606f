#!/usr/bin/env bats
# Wycheproof RSASSA-PKCS1-v1_5 signature generation (2048/3072/4096-bit keys):
# signatures made through the shim (portable kernel forced, and the default
# policy) equal the expected ones byte for byte. About 2 s.

load "helpers/common"

setup() {
    cs_env
    cs_require
    DRIVER=$CS_BUILD/tests/e2e/rsa_sign_driver
    [ -x "$DRIVER" ] || { echo "missing $DRIVER (make tests-build)" >&2; return 1; }
    STATS=$BATS_TEST_TMPDIR/sign.stats
}

# sign_file BITS ENV...: signs every case of the BITS-bit file under the shim.
sign_file() {
    local bits=$1; shift
    local json=$VECTORS/wycheproof/rsa_pkcs1_${bits}_sig_gen_test.json
    [ -f "$json" ] || { echo "missing $json" >&2; return 1; }
    run env "$@" CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" "$DRIVER" "$json"
    echo "$output"
    stats_rows "$STATS"
}

@test "the driver matches every vector without the shim" {
    local bits
    for bits in 2048 3072 4096; do
        run "$DRIVER" "$VECTORS/wycheproof/rsa_pkcs1_${bits}_sig_gen_test.json"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *" 0 mismatch" ]]
    done
}

# portable_file BITS: the BITS file signed through the portable kernel, byte
# for byte, the kernel's calls counted.
portable_file() {
    sign_file "$1" CRYPTOSHIM_KERNELS=portable
    [ "$status" -eq 0 ]
    [[ "$output" == *" 0 mismatch" ]]
    [ "$(stats_sum "$STATS" portable)" -gt 0 ]
}

@test "rsa_pkcs1_2048_sig_gen through the portable kernel: byte for byte" { portable_file 2048; }
@test "rsa_pkcs1_3072_sig_gen through the portable kernel: byte for byte" { portable_file 3072; }
@test "rsa_pkcs1_4096_sig_gen through the portable kernel: byte for byte" { portable_file 4096; }

@test "all three files under the default policy: byte for byte" {
    local bits
    for bits in 2048 3072 4096; do
        sign_file "$bits"
        [ "$status" -eq 0 ]
        [[ "$output" == *" 0 mismatch" ]]
    done
    [ "$(stats_sum "$STATS")" -gt 0 ]
}
