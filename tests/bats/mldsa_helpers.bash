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

# stock_setup DRIVER [SEEDVAR]: for setup() of the suites comparing a
# driver's lines with and without the shim: mldsa_require, DRIVER built,
# RUNSEED from $SEEDVAR or a fresh one (printed, to repeat it) when SEEDVAR
# is named, then the test's scratch directory.
stock_setup() {
    mldsa_require
    [ -x "$1" ] || { echo "missing $1 (make tests-build)" >&2; return 1; }
    if [ -n "${2:-}" ]; then
        RUNSEED=${!2:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
        echo "# run seed $RUNSEED ($2=$RUNSEED to repeat)" >&3
    fi
    cd "$BATS_TEST_TMPDIR"
}

# stock_agrees STOCK SHIM WHAT: the shim's run (file SHIM) printed stock's
# lines (file STOCK; "#" lines aside) and the cryptoshim provider held every
# key of it; WHAT names the run in messages. Returns 2, silently, when the
# provider served nothing in it (an implementation this CPU cannot run).
stock_agrees() {
    local stock=$1 shim=$2 what=$3
    grep -q '^# provider cryptoshim' "$shim" || return 2
    if grep '^# provider' "$shim" | grep -qv '^# provider cryptoshim'; then
        echo "$what: a key of the shim's run is not the provider's:" >&2
        grep '^# provider' "$shim" | sort | uniq -c >&2
        return 1
    fi
    if ! diff <(grep -v '^#' "$stock") <(grep -v '^#' "$shim") >&2; then
        echo "$what, run seed $RUNSEED: lines differ (< stock, > shim)" >&2
        return 1
    fi
}

# each_version BODY [ARGS...]: runs the function BODY VER ARGS for VER 3.5,
# then 3.6 and 4.0 when present (ossl_versions, DRIVER40 the suite's driver
# for 4.0), noting the ones absent; fails without 3.5.
each_version() {
    local ver vers
    vers=$(ossl_versions "$DRIVER40" 35 35 36 40)
    for ver in $vers; do
        "$1" "$ver" "${@:2}"
    done
}

# fips_conf: writes fips.cnf here, a configuration asking for fips=yes by
# default (the trees have no FIPS provider, so every fetch fails).
fips_conf() {
    cat >fips.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
alg_section = evp_properties
[evp_properties]
default_properties = fips=yes
CNF
}

# fips_same_failure CMD...: OpenSSL 3.5's CMD under fips.cnf fails with the
# same status and the same OpenSSL errors with and without the shim
# (counting into st); the outputs stay in ref.out and got.out, the errors
# in ref.err and got.err.
fips_same_failure() {
    local ref=0 got=0
    OPENSSL_CONF=fips.cnf ossl "$@" >ref.out 2>&1 || ref=$?
    OPENSSL_CONF=fips.cnf shim st "$@" >got.out 2>&1 || got=$?
    cat ref.out got.out
    [ "$ref" -ne 0 ]
    [ "$ref" -eq "$got" ]
    errors ref.out >ref.err
    errors got.out >got.err
    diff ref.err got.err
}
