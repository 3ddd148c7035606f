# Shared by tests/bats/mldsa_*.bats: OpenSSL 3.5 from `make openssl35`, the
# preloaded shim, and its call counters.

load helpers/common # ossl_drive, ossl_have

OSSL35="$CS_BUILD/openssl35/bin/openssl"
SHIMLIB="$CS_BUILD/libcryptoshim.so"
SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# Fails the test early when the 3.5 tree or the library is missing; skips
# while the shim core (the CLI that reads stats) is not in this tree yet.
mldsa_require() {
    [ -x "$OSSL35" ] || { echo "missing $OSSL35 (make openssl35)" >&2; return 1; }
    [ -f "$SHIMLIB" ] || { echo "missing $SHIMLIB" >&2; return 1; }
    [ -x "$CS_BUILD/cryptoshim" ] || skip "shim core not built (no $CS_BUILD/cryptoshim)"
}

# run35 ENV... -- ARGS: $DRIVER on OpenSSL 3.5's libraries (its tree's
# bin/run, whose loader still reads LD_PRELOAD), with environment changes ENV
# (env's NAME=VALUE and -u NAME).
run35() {
    ossl_drive 35 none "$DRIVER" "$@"
}

# ossl ARGS: OpenSSL 3.5 alone (with nothing preloaded).
ossl() {
    env -u LD_PRELOAD -u CRYPTOSHIM_STATS "$OSSL35" "$@"
}

# shim STATSFILE ARGS: OpenSSL 3.5 with the shim preloaded, counting into
# STATSFILE.
shim() {
    local stats=$1
    shift
    LD_PRELOAD="$SHIMLIB" CRYPTOSHIM_STATS="$stats" "$OSSL35" "$@"
}

# calls STATSFILE OP [BITS]: calls of OP (mldsa_keygen, mldsa_sign,
# mldsa_verify) served by one of our kernels (not passed to libcrypto).
calls() {
    [ -f "$1" ] || { echo 0; return; }
    "$CS_BUILD/cryptoshim" stats "$1" |
        awk -F'\t' -v op="$2" -v bits="${3:-}" \
            '$1 == op && $2 != "libcrypto" && (bits == "" || $3 == bits) { n += $4 }
             END { print n + 0 }'
}

# errors FILE: OpenSSL error lines without the thread id and source
# location, so two runs' failures can be compared.
errors() {
    sed -n 's/^[^:]*:error:\([0-9A-F]*:[^:]*:[^:]*:[^:]*\):.*/\1/p' "$1"
}

# fails CMD...: succeeds when CMD fails (a bare `! CMD` would not stop a
# bats test).
fails() {
    if "$@"; then
        echo "expected to fail: $*" >&2
        return 1
    fi
    return 0
}
