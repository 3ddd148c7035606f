#!/usr/bin/env bats
# The method route on the system OpenSSL 3.0, for real: a copy of its
# libcrypto.so.3 with DF_SYMBOLIC set (helpers/set_symbolic.py; the loader then
# binds the library's own calls to its own definitions, as with Debian's 3.6),
# found first through LD_LIBRARY_PATH. The preloaded shim cannot reach
# libcrypto's own BN_mod_exp_mont* there, so it installs RSA/DH/DSA default
# methods from the application's first trigger call. Also odd processes: the
# application's own RSA method set before or after the shim's, 8 threads
# racing the first call, fork after installation, CRYPTOSHIM_ROUTE=method on
# the unpatched library. Every case's expected result is written in its
# name: RSA PKCS#1 v1.5 signatures are deterministic, so each must equal the
# signature made without the shim. About 15 s.

load "helpers/common"

setup_file() {
    cs_env
    cs_ready || return 0
    local d=$BATS_FILE_TMPDIR
    cc -O2 -o "$d/route_driver" "$BATS_TEST_DIRNAME/helpers/route_driver.c" -lcrypto -pthread
    mkdir -p "$d/symlib"
    cp "$(cc -print-file-name=libcrypto.so.3)" "$d/symlib/libcrypto.so.3"
    python3 "$BATS_TEST_DIRNAME/helpers/set_symbolic.py" "$d/symlib/libcrypto.so.3"
    openssl genrsa -out "$d/key.pem" 2048 2>/dev/null
    "$d/route_driver" plain "$d/key.pem" >"$d/want"
}

setup() {
    cs_env
    cs_require
    D=$BATS_FILE_TMPDIR
    DRV=$D/route_driver
    WANT=$(cat "$D/want")
    STATS=$BATS_TEST_TMPDIR/s.stats
}

# drive [VAR=VALUE...] MODE: `run`s the route driver in MODE on the test key,
# shim preloaded (portable kernel, stats in $STATS) with the given
# environment, and checks it exited 0.
drive() {
    run env "${@:1:$#-1}" CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" \
        LD_PRELOAD="$SHIM" "$DRV" "${!#}" "$D/key.pem"
    [ "$status" -eq 0 ]
}

# sym MODE: drive MODE against the DF_SYMBOLIC copy.
sym() {
    drive LD_LIBRARY_PATH="$D/symlib" "$1"
}

# note: the route line the preloaded process recorded for libcrypto.so.3.
note() {
    "$CLI" stats "$STATS" | grep '^# route libcrypto.so.3:'
}

# crt_calls N: the portable kernel served N 1024-bit CRT halves, each
# RSA-2048 signature's two in one paired call (bn/rsa_crt.c), none
# as single calls.
crt_calls() {
    [ "$((2 * $(stats_sum "$STATS" portable mod_exp_consttime_x2 1024)))" -eq "$1" ] &&
        [ "$(stats_sum "$STATS" portable mod_exp_consttime 1024)" -eq 0 ]
}

# installed ERE: the route note says the method route was installed, its
# list of methods and trigger matching ERE.
installed() {
    note | grep -Eq "modexp method \([0-9.]+: $1"
}

@test "DF_SYMBOLIC copy without the shim: the same signature as the system library" {
    [ "$(LD_LIBRARY_PATH="$D/symlib" "$DRV" plain "$D/key.pem")" = "$WANT" ]
}

@test "DF_SYMBOLIC copy: info shows DT_SYMBOLIC and the method route" {
    run "$CLI" info --lib "$D/symlib/libcrypto.so.3"
    [ "$status" -eq 0 ]
    echo "$output" | grep -A2 -F "$D/symlib/libcrypto.so.3" | grep -q 'DT_SYMBOLIC'
    echo "$output" | grep -A2 -F "$D/symlib/libcrypto.so.3" | grep -q 'modexp route *method'
}

@test "DF_SYMBOLIC copy under the shim: same signature, the CRT halves one paired kernel call, methods installed at the first trigger" {
    sym plain
    [ "$output" = "$WANT" ]
    # two CRT halves, blinding, and the verification after signing
    crt_calls 2
    [ "$(stats_sum "$STATS" portable '*' 2048)" -eq 2 ]
    installed 'rsa rsa-crt dh dsa from PEM_read_PrivateKey\)'
    # info shows what the preloaded process recorded
    "$CLI" info --stats "$STATS" | grep -A3 '^routes recorded in' |
        grep -Eq 'route libcrypto.so.3: .*modexp method \([0-9.]+: rsa rsa-crt dh dsa'
}

@test "DF_SYMBOLIC copy, legacy API first (PEM_read_RSAPrivateKey, RSA_sign): same signature, installed from the reader" {
    sym legacy
    [ "$output" = "$WANT" ]
    crt_calls 2
    installed 'rsa rsa-crt dh dsa from PEM_read_RSAPrivateKey\)'
}

@test "DF_SYMBOLIC copy, a key made before the first trigger: served by the kernel too (the stock method object is hooked in place), as are later keys" {
    sym older
    [ "${lines[0]}" = "older key ok" ]
    [ "${lines[1]}" = "$WANT" ]
    # 2 CRT halves for the older key's signature, 2 for the key read after
    crt_calls 4
    installed 'rsa rsa-crt dh dsa from EVP_PKEY_CTX_new\)'
}

@test "DF_SYMBOLIC copy under the shim: a key from EVP_PKEY_dup signs as stock (the key's method is libcrypto's own object, not a foreign one)" {
    sym dup
    [ "$output" = "$WANT" ]
}

@test "DF_SYMBOLIC copy, CRYPTOSHIM_DISABLE=1: same signature, no kernel call, no method installed" {
    drive CRYPTOSHIM_DISABLE=1 LD_LIBRARY_PATH="$D/symlib" plain
    [ "$output" = "$WANT" ]
    [ "$(stats_sum "$STATS" portable)" -eq 0 ]
    note | grep -q 'modexp method; '
}

@test "application's own RSA method set before the shim's: kept (its hook runs), shim installs DH and DSA only" {
    sym own-before
    [ "${lines[0]}" = "$WANT" ]
    [[ "${lines[1]}" =~ ^own\ method\ calls\ [1-9] ]]
    installed "dh dsa rsa-app's from"
}

@test "application's own RSA method set after the shim's: the application's wins for its keys" {
    sym own-after
    [ "${lines[0]}" = "$WANT" ]
    [[ "${lines[1]}" =~ ^own\ method\ calls\ [1-9] ]]
    installed 'rsa rsa-crt dh dsa from OPENSSL_init_crypto\)'
}

@test "8 threads racing the first call: 8 correct signatures, installed once, every signature through the kernel" {
    sym threads
    [ "${#lines[@]}" -eq 8 ]
    for l in "${lines[@]}"; do [ "$l" = "$WANT" ]; done
    crt_calls 16
    [ "$(note | wc -l)" -eq 1 ]
    installed 'rsa rsa-crt dh dsa from'
}

@test "fork after installation: child and parent sign correctly through the kernel" {
    sym fork
    [ "${lines[0]}" = "child $WANT" ]
    [ "${lines[1]}" = "parent $WANT" ]
    crt_calls 4
    installed 'rsa rsa-crt dh dsa from OPENSSL_init_crypto\)'
}

@test "CRYPTOSHIM_ROUTE=method on the unpatched system library: same signature, method installed" {
    drive CRYPTOSHIM_ROUTE=method plain
    [ "$output" = "$WANT" ]
    crt_calls 2
    installed 'rsa rsa-crt dh dsa from'
}

@test "default route on the unpatched system library: symbols, no method installed" {
    drive plain
    [ "$output" = "$WANT" ]
    note | grep -q 'modexp symbols; '
}

@test "DF_SYMBOLIC copy opened later RTLD_LOCAL and used only through dlsym: works as stock (no trigger reached)" {
    cc -O2 -o "$BATS_TEST_TMPDIR/dlk" "$BATS_TEST_DIRNAME/helpers/dlopen_keygen.c" -ldl
    run env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$STATS" LD_PRELOAD="$SHIM" \
        "$BATS_TEST_TMPDIR/dlk" "$D/symlib/libcrypto.so.3"
    keygen_lines_ok
}

@test "cryptoshim run warns once when nothing could be hooked, and not otherwise" {
    run "$CLI" run -- /bin/true
    [ "$status" -eq 0 ]
    [ "$(grep -c 'nothing was hooked' <<<"$output")" -eq 1 ]
    run "$CLI" run -- openssl version
    [ "$status" -eq 0 ]
    ! grep -q 'nothing was hooked' <<<"$output"
    run "$CLI" run -- sh -c 'exit 7'
    [ "$status" -eq 7 ]
}

@test "cryptoshim run passes a kill on to the program and exits as it did" {
    "$CLI" run -- sleep 30 3>&- 2>/dev/null &
    local pid=$!
    sleep 0.5
    local child
    child=$(pgrep -P "$pid" -x sleep)
    [ -n "$child" ]
    kill -TERM "$pid"
    local rc=0
    wait "$pid" || rc=$?
    [ "$rc" -eq 143 ]
    ! kill -0 "$child" 2>/dev/null
}
