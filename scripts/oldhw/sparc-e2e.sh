#!/usr/bin/env bash
# The old-hardware story under qemu-sparc32plus: a SPARC libcrypto built for
# v7 (no integer multiply instruction) signs RSA with and without the shim,
# which brings its v8 `umul` kernel (selected because the emulated CPU
# reports MULDIV). Prints emulated-time rates from `openssl speed` and guest
# instruction counts from the QEMU plugin; the two are different things:
# emulated time is host time spent emulating, not SPARC time.
# Usage: sparc-e2e.sh [ROUNDS]   (needs build/oldhw/openssl-v7, built by
# scripts/oldhw/build-openssl-v7.sh, and `make CROSS=sparc32`)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
. scripts/oldhw/sparc-env.sh

# insns ARGS...: "instructions muldiv" executed by one guest command.
insns() {
    local out
    out=$(mktemp)
    qemu-sparc32plus -L "$SPARC_SYSROOT" -plugin "$SPARC_PLUGIN,arch=sparc,out=$out" \
        -E LD_LIBRARY_PATH="$V7/lib" "$@" >/dev/null 2>&1
    awk '{ print $2, $4 }' "$out"
    rm -f "$out"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for bits in 1024 2048; do
    openssl genrsa -out "$work/rsa$bits.pem" "$bits" 2>/dev/null
done
head -c 32 /dev/urandom >"$work/digest"

echo "== openssl speed under qemu-sparc32plus (emulated time; ops/s), $ROUNDS rounds, alternating"
for ((r = 1; r <= ROUNDS; r++)); do
    for mode in stock shim; do
        pre=()
        [ $mode = shim ] && pre=(-E LD_PRELOAD="$SPARC_SHIM")
        # A v7 RSA-2048 signature takes seconds of emulated time: longer runs.
        for alg in rsa1024:4 rsa2048:12; do
            qemu-sparc32plus -L "$SPARC_SYSROOT" -E LD_LIBRARY_PATH="$V7/lib" "${pre[@]}" \
                "$V7/bin/openssl" speed -mr -seconds "${alg#*:}" "${alg%:*}" 2>/dev/null |
                awk -F: -v m=$mode -v r=$r '/^\+F2:/ { printf "round %d %-5s rsa%d sign/s %.2f verify/s %.1f\n", r, m, $3, $4, $5 }'
        done
    done
done

echo "== guest instructions per RSA signature (QEMU plugin; one pkeyutl -sign minus loading the key)"
for bits in 1024 2048; do
    base=$(insns "$V7/bin/openssl" pkey -in "$work/rsa$bits.pem" -noout)
    for mode in stock shim; do
        pre=()
        [ $mode = shim ] && pre=(-E LD_PRELOAD="$SPARC_SHIM")
        read -r n md < <(insns "${pre[@]}" "$V7/bin/openssl" pkeyutl -sign -inkey "$work/rsa$bits.pem" \
            -in "$work/digest" -out "$work/sig.$mode")
        read -r bn bmd <<<"$base"
        printf 'rsa%d %-5s instructions %d (signing %d), hardware mul/div executed %d\n' \
            "$bits" "$mode" "$n" $((n - bn)) "$md"
    done
    cmp "$work/sig.stock" "$work/sig.shim" && echo "rsa$bits: signatures identical"
done
