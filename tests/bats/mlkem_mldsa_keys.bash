# Shared by tests/bats/mlkem_keys.bats and tests/bats/mldsa_keys.bats (issue
# 34): tests/bats/helpers/mlkem_mldsa_keys_driver run on stock OpenSSL 3.5,
# 3.6 and 4.0 and with the shim preloaded (each ML-KEM/ML-DSA table forced
# in turn with CRYPTOSHIM_KERNELS), under each provider configuration
# OpenSSL documents for these keys (ml-kem.* / ml-dsa.*: prefer_seed,
# retain_seed, import_pct_type, output_formats), and the lines compared.

load mldsa_helpers

KDRIVER="$CS_BUILD/tests/e2e/mlkem_mldsa_keys_driver"
KDRIVER40="$CS_BUILD/tests/e2e/mlkem_mldsa_keys_driver40" # linked against libcrypto.so.4
KEYS_TABLES=${KEYS_TABLES:-avx512,avx2,portable}

# The provider configurations swept: NAME, then its default_sect lines.
KEYS_CONFS=(
    "default|"
    "noprefer|ml-kem.prefer_seed = no;ml-dsa.prefer_seed = no"
    "noretain|ml-kem.retain_seed = no;ml-dsa.retain_seed = no"
    "pctnone|ml-kem.import_pct_type = none"
    "fixed-seedonly|ml-kem.import_pct_type = fixed;ml-kem.output_formats = seed-only;ml-dsa.output_formats = seed-only"
    "privonly|ml-kem.output_formats = priv-only;ml-dsa.output_formats = priv-only"
    "bothno|ml-kem.prefer_seed = no;ml-kem.retain_seed = no;ml-dsa.prefer_seed = false;ml-dsa.retain_seed = off;ml-kem.output_formats = bare-seed, priv-only;ml-dsa.output_formats = bare-seed, priv-only"
)

# keys_conf NAME: writes NAME.cnf (the default provider, activated, with
# NAME's parameters) in the current directory.
keys_conf() {
    local entry line
    for entry in "${KEYS_CONFS[@]}"; do
        [ "${entry%%|*}" = "$1" ] || continue
        {
            printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
            printf '[provider_sect]\ndefault = default_sect\n[default_sect]\nactivate = 1\n'
            IFS=';' read -ra lines <<<"${entry#*|}"
            for line in "${lines[@]}"; do
                [ -n "$line" ] && printf '%s\n' "$line"
            done
        } >"$1.cnf"
        return 0
    done
    echo "no configuration $1" >&2
    return 1
}

# kdrive VER LIB CONF ARGS: the driver on OpenSSL VER's libraries (its
# tree's bin/run, whose loader still reads LD_PRELOAD), LIB preloaded unless
# "none", OPENSSL_CONF=CONF, CRYPTOSHIM_KERNELS=$KERNELS, no stats.
kdrive() {
    local ver=$1 lib=$2 conf=$3 driver=$KDRIVER
    [ "$ver" = 40 ] && driver=$KDRIVER40
    shift 3
    ossl_drive "$ver" "$lib" "$driver" -u CRYPTOSHIM_STATS OPENSSL_CONF="$conf" \
        CRYPTOSHIM_KERNELS="${KERNELS-}" -- "$@"
}

# keys_versions: the versions present (3.5 required).
keys_versions() {
    ossl_versions "$KDRIVER40" 35 35 36 40
}

# keys_table_runs TABLE: the CPU can run that ML-DSA/ML-KEM table
# (portable always; avx2, avx512 as `cryptoshim info` reports them).
keys_table_runs() {
    [ "$1" = portable ] && return 0
    "$CS_BUILD/cryptoshim" info | grep -qE "^  $1 +usable"
}

# keys_norm CONF SIDE FILE: FILE's point lines, for comparison. Under a
# prefer_seed=no configuration a key holding its seed exports the seed
# without its private key (so the default provider's encoders, which import
# that, keep the seed as for stock's own keys): EVP_PKEY_todata gives seed
# and public key where stock gives seed, private and public key; that one
# field of keys holding a seed is masked (the DER written, the key's
# parameters and every other point still compared).
keys_norm() {
    if grep -q 'prefer_seed = \(no\|false\)' "$1.cnf"; then
        grep -v '^#' "$3" | sed 's/todata=s+p\(+p\)\?:[0-9a-f]*/todata=SEED-EXPORT/'
    else
        grep -v '^#' "$3"
    fi
}

# keys_compare ALGS GROUP: for every version, configuration, algorithm of
# ALGS and table of KEYS_TABLES, the shim's lines are stock's and the
# shim's provider served every key made (decoded keys stay the default
# provider's: its decoder makes them). Prints a summary to fd 3.
keys_compare() {
    local algs=$1 group=$2 ver entry conf alg table n=0 diffs=0 points=0 ran
    for ver in $(keys_versions); do
        for entry in "${KEYS_CONFS[@]}"; do
            conf=${entry%%|*}
            keys_conf "$conf"
            for alg in $algs; do
                kdrive "$ver" none "$PWD/$conf.cnf" "$alg" "$group" "$RUNSEED" >"stock.$ver.$conf.$alg"
                grep -q '^# provider default' "stock.$ver.$conf.$alg"
                ran=0
                for table in ${KEYS_TABLES//,/ }; do
                    keys_table_runs "$table" || continue
                    local out="shim.$ver.$conf.$alg.$table"
                    KERNELS=$table kdrive "$ver" "$SHIMLIB" "$PWD/$conf.cnf" "$alg" "$group" "$RUNSEED" >"$out"
                    if grep '^# provider' "$out" | grep -v ' decode$' | grep -qv '^# provider cryptoshim'; then
                        echo "OpenSSL $ver, $conf, $alg, $table: not every key was the shim's:" >&2
                        grep '^# provider' "$out" >&2
                        return 1
                    fi
                    if ! diff <(keys_norm "$conf" stock "stock.$ver.$conf.$alg") \
                        <(keys_norm "$conf" shim "$out") >"diff.$ver.$conf.$alg.$table"; then
                        diffs=$((diffs + $(grep -c '^<' "diff.$ver.$conf.$alg.$table")))
                        echo "OpenSSL $ver, $conf, $alg, $table, run seed $RUNSEED: lines differ (< stock, > shim):" >&2
                        head -20 "diff.$ver.$conf.$alg.$table" >&2
                    fi
                    points=$((points + $(grep -vc '^#' "$out")))
                    ran=$((ran + 1))
                done
                [ "$ran" -ge 1 ]
                n=$((n + 1))
            done
        done
    done
    echo "# $points points compared ($n version/configuration/algorithm runs), $diffs differing" >&3
    [ "$diffs" -eq 0 ]
}

# keys_setup: the run seed (KEYS_SEED=N repeats one), and a scratch dir.
keys_setup() {
    stock_setup "$KDRIVER" KEYS_SEED
}

# keys_cli VER LIB|none TABLE ARGS: openssl VER (LIB preloaded unless
# none), CRYPTOSHIM_KERNELS=TABLE, with the tree's own configuration.
keys_cli() {
    local ver=$1 lib=$2 table=$3
    shift 3
    if [ "$lib" = none ]; then
        env -u LD_PRELOAD -u CRYPTOSHIM_STATS "$CS_BUILD/openssl$ver/bin/openssl" "$@"
    else
        env LD_PRELOAD="$lib" CRYPTOSHIM_KERNELS="$table" CRYPTOSHIM_STATS="$PWD/cli.stats" \
            "$CS_BUILD/openssl$ver/bin/openssl" "$@"
    fi
}

# keys_refused "ALGS" ERR PRIV...: with the default configuration, a seed
# beside each named private-key variant of the sweep is refused by stock
# with the errors ERR, and by the shim (every table) with the same.
keys_refused() {
    local algs=$1 err=$2 ver table alg pt n=0
    shift 2
    keys_conf default
    for ver in $(keys_versions); do
        for alg in $algs; do
            kdrive "$ver" none "$PWD/default.cnf" "$alg" sweep "$RUNSEED" >stock.txt
            for table in ${KEYS_TABLES//,/ }; do
                keys_table_runs "$table" || continue
                KERNELS=$table kdrive "$ver" "$SHIMLIB" "$PWD/default.cnf" "$alg" sweep "$RUNSEED" >shim.txt
                grep -q '^# provider cryptoshim fromdata' shim.txt
                for pt in "$@"; do
                    grep -q "sweep.kp.seed=good.priv=$pt.pub=none rc=0 err=$err\$" stock.txt
                    if ! grep -q "sweep.kp.seed=good.priv=$pt.pub=none rc=0 err=$err\$" shim.txt; then
                        echo "OpenSSL $ver, $alg, $table: seed + private key with $pt:" >&2
                        grep "sweep.kp.seed=good.priv=$pt.pub=none " shim.txt >&2
                        return 1
                    fi
                    n=$((n + 1))
                done
            done
        done
    done
    echo "# $n refusals checked" >&3
}

# keys_cli_bytes "ALGS" SEEDBYTES OP PROVPARAM...: genpkey from a seed, and
# pkey reading stock's file, under each -provparam (and none) write with
# the shim (every table; the key made on our kernels, counted as OP) the
# bytes stock writes.
keys_cli_bytes() {
    local algs=$1 op=$3 ver table alg pp seed
    seed=$(od -An -tx1 -N"$2" /dev/urandom | tr -d ' \n')
    shift 3
    for ver in $(keys_versions); do
        for alg in $algs; do
            for pp in "" "$@"; do
                local args=()
                [ -n "$pp" ] && args=(-provparam "$pp")
                keys_cli "$ver" none - genpkey -algorithm "$alg" -pkeyopt "hexseed:$seed" \
                    "${args[@]}" -out stock.pem
                keys_cli "$ver" none - pkey -in stock.pem "${args[@]}" -out stock2.pem
                for table in ${KEYS_TABLES//,/ }; do
                    keys_table_runs "$table" || continue
                    rm -f cli.stats
                    keys_cli "$ver" "$SHIMLIB" "$table" genpkey -algorithm "$alg" \
                        -pkeyopt "hexseed:$seed" "${args[@]}" -out shim.pem
                    [ "$(calls cli.stats "$op")" -ge 1 ] # the shim made the key
                    if ! cmp -s stock.pem shim.pem; then
                        echo "OpenSSL $ver, $alg, $table, [$pp]: genpkey wrote other bytes" >&2
                        return 1
                    fi
                    # read by the default provider's decoder, written again
                    keys_cli "$ver" "$SHIMLIB" "$table" pkey -in stock.pem "${args[@]}" -out shim2.pem
                    cmp stock2.pem shim2.pem
                done
            done
        done
    done
}

# keys_info_disabled: $output (cryptoshim info under CRYPTOSHIM_DISABLE=1)
# says nothing is served: the summary line, every ML-DSA, ML-KEM, X25519
# and Ed25519 row naming libcrypto and no table, no provider route.
keys_info_disabled() {
    [[ "$output" == *"served             nothing: CRYPTOSHIM_DISABLE=1"* ]]
    [ "$(echo "$output" | grep -cE '^  (ML-(DSA|KEM)-[0-9]+|X25519|Ed25519) +libcrypto \(CRYPTOSHIM_DISABLE=1: not served\)$')" -eq 8 ]
    ! echo "$output" | grep -E '^  (ML-(DSA|KEM)-|X25519|Ed25519)' | grep -qE 'avx|portable|s390|adx'
    ! echo "$output" | grep -q 'ML-DSA route     provider'
}
