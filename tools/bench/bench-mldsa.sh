#!/usr/bin/env bash
# ML-DSA benchmark: `openssl speed` from the OpenSSL 3.5 tree, stock against
# the shim (CRYPTOSHIM_KERNELS=portable by default), interleaved round by
# round in one run, medians of ops per CPU-second and their ratio. Then the
# provider's per-call overhead: the shim's time per call through OpenSSL
# minus the kernel's time per call measured directly.
# Usage: tools/bench/bench-mldsa.sh [ROUNDS [SECONDS [KERNELS]]]   (after make openssl35)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
ROUNDS=${1:-5}
SECS=${2:-1}
KERNELS=${3:-portable}
OSSL=$BUILD/openssl35/bin/openssl
LIB=$(cd "$BUILD" && pwd)/libcryptoshim.so
[ -x "$OSSL" ] && [ -f "$LIB" ] || { echo "build the library and make openssl35 first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# speed_rates WHO: one `openssl speed -mr` run (its +R lines go to stderr);
# lines "who ps op ops_per_s".
speed_rates() {
    local who=$1
    if [ "$who" = stock ]; then
        env -u LD_PRELOAD "$OSSL" speed -mr -seconds "$SECS" ML-DSA-44 ML-DSA-65 ML-DSA-87
    else
        LD_PRELOAD="$LIB" CRYPTOSHIM_KERNELS="$KERNELS" \
            "$OSSL" speed -mr -seconds "$SECS" ML-DSA-44 ML-DSA-65 ML-DSA-87
    fi 2>&1 | awk -F: -v who="$who" '
        /^\+R(18|19|20):/ {
            op = $1 == "+R18" ? "keygen" : $1 == "+R19" ? "sign" : "verify"
            sub(/^ML-DSA-/, "", $3)
            if ($4 > 0) printf "%s %s %s %.1f\n", who, $3, op, $2 / $4
        }'
}

for r in $(seq "$ROUNDS"); do
    # Alternate which goes first so drift in machine load falls on both.
    if [ $((r % 2)) -eq 1 ]; then order="stock shim"; else order="shim stock"; fi
    for who in $order; do speed_rates "$who" >>"$out/rates"; done
    echo "round $r/$ROUNDS done" >&2
done

# Kernel alone, for the overhead column.
make -s BUILD="$BUILD" "$BUILD/bench/kernel_rate" >&2
first=${KERNELS%%,*}
"$BUILD/bench/kernel_rate" "$first" "$SECS" | awk '{print "kernel", $0}' >>"$out/rates"

echo "| parameter set | operation | stock 3.5 ops/s | shim ($KERNELS) ops/s | ratio | kernel alone ops/s | provider overhead per call |"
echo "|---|---|---:|---:|---:|---:|---:|"
python3 - "$out/rates" <<'PY'
import sys, statistics as st
rates = {}
for line in open(sys.argv[1]):
    who, ps, op, v = line.split()
    rates.setdefault((who, ps, op), []).append(float(v))
for ps in ("44", "65", "87"):
    for op in ("keygen", "sign", "verify"):
        s = st.median(rates.get(("stock", ps, op), [0]))
        m = st.median(rates.get(("shim", ps, op), [0]))
        k = st.median(rates.get(("kernel", ps, op), [0]))
        over = (1e6 / m - 1e6 / k) if m and k else float("nan")
        print(f"| ML-DSA-{ps} | {op} | {s:.0f} | {m:.0f} | {m / s if s else 0:.2f}x | {k:.0f} | {over:.1f} us |")
PY
