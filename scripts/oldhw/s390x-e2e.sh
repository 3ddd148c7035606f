#!/usr/bin/env bash
# The IBM Z field report's comparison under qemu-s390x: Debian's s390x
# OpenSSL 4.0 (experimental, libssl4, with sid's C library) and 3.x (3.5
# from trixie when this machine's mirror has its s390x packages, and 3.6
# from sid), unpacked under build/s390x by scripts/fetch-debian-openssl.sh
# --arch s390x (nothing installed), running the operations `openssl speed`
# times (scripts/oldhw/ossl_ops.c: ML-DSA-44/65/87 keygen, sign, verify;
# ML-KEM-768 keygen, encaps, decaps; RSA-2048/3072 sign; ffdh2048 derive)
# without and with the s390x shim (`make CROSS=s390x`), and for RSA and DH
# with s390x_mlgr forced. Prints guest instructions per operation from the
# QEMU plugin (scripts/oldhw/insn_count.c: count(N) - count(0), over N),
# the stock/shim ratio, the Keccak share of each side (profile by function,
# scripts/oldhw/profile.py) and whether the outputs were the same (every
# input is fixed: seeded keys, deterministic signatures), then the
# function profiles of ML-DSA signing on 4.0.
#
# Instruction counts are not z15 time: they weigh a vector instruction like
# a scalar one and say nothing of pipelines, caches or CPACF (docs/oldhw.md).
# Emulated time is not measured at all.
# Usage: s390x-e2e.sh [N]   (N operations per count, default 10; `make
# s390x-e2e`, which builds the shim first)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
N=${1:-10}
OUT=$ROOT/build/s390x
PLUGIN=$ROOT/build/oldhw/plugin/insn_count.so
SHIM=$ROOT/build/cross-s390x/libcryptoshim.so
PROF=$OUT/prof
mkdir -p "$OUT/tools" "$OUT/keys" "$PROF"
command -v qemu-s390x >/dev/null || { echo "s390x-e2e: needs qemu-s390x (qemu-user)" >&2; exit 1; }
[ -f "$SHIM" ] || { echo "s390x-e2e: build the shim first: make CROSS=s390x" >&2; exit 1; }
scripts/oldhw/build-plugin.sh >/dev/null

# CPACF first: whether the installed qemu-s390x or Debian 13's (qemu-user,
# unpacked under build/oldhw/qemu10 through apt-private.sh, nothing
# installed) reports KIMD SHAKE-128/256, which s390x_vx_cpacf and stock's
# CPACF SHA-3 path need; and whether it accepts them asked for by name.
Q10=build/oldhw/qemu10/root/usr/bin/qemu-s390x
if [ ! -x "$Q10" ]; then
    (mkdir -p build/oldhw/qemu10/debs && cd build/oldhw/qemu10/debs &&
        APT_SUITE=trixie "$ROOT/scripts/oldhw/apt-private.sh" ../apt amd64 update &&
        APT_SUITE=trixie "$ROOT/scripts/oldhw/apt-private.sh" ../apt amd64 download qemu-user &&
        dpkg-deb -x qemu-user_*.deb ../root) >"$OUT/qemu10.fetch.log" 2>&1 ||
        echo "s390x-e2e: Debian 13's qemu-user not fetched (see $OUT/qemu10.fetch.log)"
fi
s390x-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -o build/oldhw/kimd_query scripts/oldhw/kimd_query.c
echo "== CPACF: the KIMD query under qemu-user (-cpu max)"
for q in qemu-s390x "$Q10"; do
    command -v "$q" >/dev/null || continue
    echo "-- $("$q" --version | head -1)"
    "$q" -cpu max build/oldhw/kimd_query | grep -v '^KLMD query'
    echo "   -cpu max,kimd-shake-128=on,kimd-shake-256=on: $("$q" -cpu max,kimd-shake-128=on,kimd-shake-256=on \
        build/oldhw/kimd_query 2>&1 | head -1)"
done

# The trees: NAME SUITES PACKAGES. 3.5's s390x packages may be absent from
# this machine's mirror (the point-release pool): then it is left out, saying so.
versions=()
fetch() {
    local name=$1 suites=$2
    shift 2
    if scripts/fetch-debian-openssl.sh --arch s390x "$OUT/$name" "$suites" "$@" \
        >"$OUT/$name.fetch.log" 2>&1 && [ ! -f "$OUT/$name/.missing" ]; then
        versions+=("$name")
    else
        echo "s390x-e2e: $name ($suites) not fetched: $(tail -n 2 "$OUT/$name.fetch.log" | paste -sd' ')"
        rm -rf "$OUT/$name"
    fi
}
fetch openssl40 experimental,sid openssl/experimental libssl4/experimental libc6 libgcc-s1 zlib1g libzstd1
fetch openssl35 trixie openssl libssl3t64 libc6 libgcc-s1 zlib1g libzstd1
fetch openssl36 sid openssl libssl3t64 libc6 libgcc-s1 zlib1g libzstd1
[ ${#versions[@]} -gt 0 ] || { echo "s390x-e2e: no s390x OpenSSL fetched" >&2; exit 1; }

# The driver, linked with each tree's libcrypto (its symbol versions).
for v in "${versions[@]}"; do
    lib=$(ls "$OUT/$v"/root/usr/lib/s390x-linux-gnu/libcrypto.so.* | head -1)
    if [ ! -x "$OUT/tools/ossl_ops.$v" ] || [ scripts/oldhw/ossl_ops.c -nt "$OUT/tools/ossl_ops.$v" ]; then
        make -s CROSS=s390x build/cross-s390x/ossl-include/openssl/configuration.h
        s390x-linux-gnu-gcc -O2 -Wall -Wextra -Werror -isystem build/cross-s390x/ossl-include \
            -o "$OUT/tools/ossl_ops.$v" scripts/oldhw/ossl_ops.c "$lib" -Wl,--allow-shlib-undefined
    fi
done

# Fixed keys (made once, on the host).
K=$OUT/keys
[ -f "$K/rsa2048.pem" ] || openssl genrsa -out "$K/rsa2048.pem" 2048 2>/dev/null
[ -f "$K/rsa3072.pem" ] || openssl genrsa -out "$K/rsa3072.pem" 3072 2>/dev/null
for p in a b; do
    [ -f "$K/dh_$p.pem" ] || openssl genpkey -algorithm DH -pkeyopt group:ffdhe2048 -out "$K/dh_$p.pem"
done

# run VERSION MODE COUNT TAG ARGS...: one driver run under the plugin; prints
# "instructions digest" and leaves the profile in $PROF/TAG.COUNT.
run() {
    local v=$1 mode=$2 n=$3 tag=$4 out
    shift 4
    out=$(mktemp)
    # The guest's environment as qemu options (the tree's wrapper is a host
    # shell, which a preloaded s390x library would only warn about).
    local guest=
    case $mode in
        shim) guest="-E LD_PRELOAD=$SHIM" ;;
        mlgr) guest="-E LD_PRELOAD=$SHIM -E CRYPTOSHIM_KERNELS=s390x_mlgr" ;;
    esac
    local d
    d=$(QEMU_USER="qemu-s390x -plugin $PLUGIN,out=$out,profile=$PROF/$tag.$n $guest" \
        "$OUT/$v/bin/run" "$OUT/tools/ossl_ops.$v" "$@" "$n" "${KEYS[@]}" | awk '{ print $NF }')
    echo "$(awk '{ print $2 }' "$out") $d"
    rm -f "$out"
}

# measure VERSION MODE ALG OP [LABEL]: "per-op keccak-per-op digest".
measure() {
    local v=$1 mode=$2 alg=$3 op=$4 tag="$1.${5:-$3}.$4.$2" c0 cn d0 dn
    read -r c0 d0 < <(run "$v" "$mode" 0 "$tag" "$alg" "$op")
    read -r cn dn < <(run "$v" "$mode" "$N" "$tag" "$alg" "$op")
    read -r total keccak < <(scripts/oldhw/profile.py --summary "$PROF/$tag.$N" "$PROF/$tag.0" "$N")
    echo "$(((cn - c0) / N)) $keccak $dn"
}

# "without Keccak": the ratio if Keccak cost nothing on either side (the
# other bound for a machine whose CPACF runs it on both sides).
printf '%-10s %-11s %-7s %12s %12s %7s %14s %9s %s\n' openssl operation op stock shim stock/shim \
    "Keccak% st/sh" "w/o Kecc" outputs
for v in "${versions[@]}"; do
    ver=$(awk '{ print $2; exit }' "$OUT/$v/VERSION")
    for c in ML-DSA-44:keygen ML-DSA-44:sign ML-DSA-44:verify ML-DSA-65:keygen ML-DSA-65:sign \
             ML-DSA-65:verify ML-DSA-87:keygen ML-DSA-87:sign ML-DSA-87:verify \
             ML-KEM-768:keygen ML-KEM-768:encaps ML-KEM-768:decaps; do
        alg=${c%:*} op=${c#*:}
        KEYS=()
        read -r s sk sd < <(measure "$v" stock "$alg" "$op")
        read -r h hk hd < <(measure "$v" shim "$alg" "$op")
        printf '%-10s %-11s %-7s %12d %12d %6.2fx %6.1f/%-6.1f %8.2fx %s\n' "$ver" "$alg" "$op" "$s" \
            "$h" "$(echo "$s / $h" | bc -l)" "$(echo "100 * $sk / $s" | bc -l)" \
            "$(echo "100 * $hk / $h" | bc -l)" "$(echo "($s - $sk) / ($h - $hk)" | bc -l)" \
            "$([ "$sd" = "$hd" ] && echo same || echo DIFFERENT)"
    done
    for c in RSA-2048:rsa2048 RSA-3072:rsa3072 ffdh2048:dh; do
        alg=${c%:*} key=${c#*:}
        if [ "$key" = dh ]; then KEYS=("$K/dh_a.pem" "$K/dh_b.pem") a=DH op=derive
        else KEYS=("$K/$key.pem") a=RSA op=sign; fi
        read -r s sk sd < <(measure "$v" stock "$a" "$op" "$alg")
        read -r h hk hd < <(measure "$v" shim "$a" "$op" "$alg")
        read -r m mk md < <(measure "$v" mlgr "$a" "$op" "$alg")
        printf '%-10s %-11s %-7s %12d %12d %6.2fx  (s390x_mlgr forced: %d, %.2fx) %s\n' "$ver" "$alg" \
            "$op" "$s" "$h" "$(echo "$s / $h" | bc -l)" "$m" "$(echo "$s / $m" | bc -l)" \
            "$([ "$sd" = "$hd" ] && [ "$sd" = "$md" ] && echo same || echo DIFFERENT)"
    done
done

v=${versions[0]}
for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87 RSA-2048; do
    op=sign modes="stock shim"
    [ "$alg" = RSA-2048 ] && modes="stock shim mlgr"
    for mode in $modes; do
        echo "== $(awk '{ print $2; exit }' "$OUT/$v/VERSION") $alg $op, $mode: instructions per operation by function"
        scripts/oldhw/profile.py --top 12 "$PROF/$v.$alg.$op.$mode.$N" "$PROF/$v.$alg.$op.$mode.0" "$N"
    done
done
