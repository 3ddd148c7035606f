#!/usr/bin/env bats
# RSA CRT signing keeps its two halves one paired call on every route and
# every libcrypto family (issue 25): 3.0 on the symbol route and on the
# method route (family 3.0), 3.5 on the symbol route, 3.6 and 4.0 on the
# method route (family 3.2+). Each of N signatures (`openssl pkeyutl -sign`,
# one process each, RSA-2048 and RSA-3072 keys) must count exactly one
# mod_exp_consttime_x2 call at the half's size and no single consttime call
# at that size, with the default policy (whoever serves the pair: a kernel
# or libcrypto's own paired function) and with a kernel forced. The
# signatures must equal stock's. 1.1.1 has no paired function (its RSA code
# calls two single exponentiations) and is not in this table. No timing.

load "../bats/helpers/common"
load "versions"

N=3

setup_file() {
    cs_env
    local d=$BATS_FILE_TMPDIR/keys b
    mkdir -p "$d"
    for b in 2048 3072; do
        env -u LD_PRELOAD openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:$b \
            -out "$d/rsa$b.pem" 2>/dev/null
    done
    head -c 32 /dev/urandom >"$d/digest"
}

setup() {
    cs_env
    cs_require
    K=$BATS_FILE_TMPDIR/keys
    T=$BATS_TEST_TMPDIR
}

# sign_with KEY OUT [ENV...]: one PKCS#1 v1.5 signature of the digest by the
# version's openssl with the shim and ENV; stock's signature when ENV is
# "stock".
sign_with() {
    local key=$1 out=$2
    shift 2
    if [ "${1:-}" = stock ]; then
        stock "$V_OSSL" pkeyutl -sign -inkey "$key" -in "$K/digest" -pkeyopt digest:sha256 -out "$out"
    else
        shimmed "$@" -- "$V_OSSL" pkeyutl -sign -inkey "$key" -in "$K/digest" \
            -pkeyopt digest:sha256 -out "$out"
    fi
}

# paired VER ROUTE [ENV...]: N signatures per key size; exactly N paired calls
# at the half's size, no single call there, the route expected, stock's bytes.
paired() {
    version_use "$1"
    local route=$2 b half stats x2 singles
    shift 2
    for b in 2048 3072; do
        half=$((b / 2))
        stats=$T/rsa$b.$RANDOM.stats
        sign_with "$K/rsa$b.pem" "$T/stock$b.sig" stock
        for i in $(seq 1 $N); do
            sign_with "$K/rsa$b.pem" "$T/shim$b.sig" CRYPTOSHIM_STATS="$stats" "$@"
            if ! cmp -s "$T/stock$b.sig" "$T/shim$b.sig"; then
                echo "RSA-$b: the signature differs from stock's"
                return 1
            fi
        done
        x2=$(stats_sum "$stats" '*' mod_exp_consttime_x2 "$half")
        singles=$(stats_sum "$stats" '*' mod_exp_consttime "$half")
        echo "RSA-$b ($*): $x2 paired calls, $singles single calls at $half bits"
        stats_rows "$stats" | grep -v '^#' | sed 's/^/    /'
        "$CLI" stats "$stats" | grep -q "route .*modexp $route" || {
            echo "route is not $route:"; "$CLI" stats "$stats" | grep route; return 1; }
        [ "$x2" -eq "$N" ] && [ "$singles" -eq 0 ] || return 1
    done
}

@test "3.0, symbol route: one paired call per RSA CRT signature" { paired 30 symbols; }
@test "3.0, symbol route, portable forced: one paired call per signature" { paired 30 symbols CRYPTOSHIM_KERNELS=portable; }
@test "3.0, method route: one paired call per RSA CRT signature" { paired 30 method CRYPTOSHIM_ROUTE=method; }
@test "3.0, method route, portable forced: one paired call per signature" { paired 30 method CRYPTOSHIM_ROUTE=method CRYPTOSHIM_KERNELS=portable; }
@test "3.5, symbol route: one paired call per RSA CRT signature" { paired 35 symbols; }
@test "3.5, method route: one paired call per RSA CRT signature" { paired 35 method CRYPTOSHIM_ROUTE=method; }
@test "3.6, method route: one paired call per RSA CRT signature" { paired 36 method; }
@test "3.6, method route, portable forced: one paired call per signature" { paired 36 method CRYPTOSHIM_KERNELS=portable; }
@test "4.0, method route: one paired call per RSA CRT signature" { paired 40 method; }
@test "4.0, method route, portable forced: one paired call per signature" { paired 40 method CRYPTOSHIM_KERNELS=portable; }
