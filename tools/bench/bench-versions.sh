#!/usr/bin/env bash
# `openssl speed` under several OpenSSL versions in one interleaved run (issue
# 12's targets): each round runs, for every version (order rotating round by
# round), stock (A) and each shim configuration (B...) one after another,
# their order rotating too, so machine load hits every side alike. Prints per
# version and operation the median rate of each side, the ratio of the
# medians, and the median of the per-round ratios (each round's sides ran
# back to back) with the lowest and highest in brackets; then each version's
# median per-round ratio against the first version's ("of 3.0's speed-up").
#
# Usage: tools/bench/bench-versions.sh [-r ROUNDS] [-s SECONDS] [-v "30 36 40"]
#            [-c NAME=ENV[,ENV...]]... ALG...
#   -v  versions: 30 is the system's openssl, NN runs build/opensslNN (make
#       openssl-versions); the first one is the reference for the last table.
#   -c  a shim configuration: NAME and the environment it adds, e.g.
#       -c fma=CRYPTOSHIM_KERNELS=x86_64-fma or -c cal=CRYPTOSHIM_POLICY=/tmp/p.
#       Default: one configuration "shim" with the built-in policy.
#   ALG as `openssl speed` takes them (rsa3072 ffdh2048 dsa2048, ML-DSA-65, ML-KEM-768).
# Rates come from the self-describing -mr lines (+DTP then +R: count, time),
# which every version from 3.0 to 4.0 prints alike; 1.1.1 has none.
set -eu
cd "$(dirname "$0")/../.."
rounds=3 secs=1 versions="30 36 40" configs=()
while getopts r:s:v:c: o; do
    case $o in
        r) rounds=$OPTARG ;;
        s) secs=$OPTARG ;;
        v) versions=$OPTARG ;;
        c) configs+=("$OPTARG") ;;
        *) sed -n '2,21p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
algs=$*
[ ${#configs[@]} -gt 0 ] || configs=(shim=)
. tools/bench/versions.bash
need_builds bench-versions "$versions"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run VER SIDE ROUND: one `openssl speed -mr`; lines "VER SIDE ROUND OP RATE".
run() {
    local ver=$1 side=$2 round=$3 env
    side_env "$side" "${configs[@]}"
    # shellcheck disable=SC2086
    "${env[@]}" $(ossl "$ver") speed -mr -seconds "$secs" $algs 2>&1 | awk -v pre="$ver $side $round" -F: '
        /^\+DTP:/ {
            # +DTP:BITS:private:rsa:N (3.0), +DTP:BITS:private:rsa sign:N (3.5+),
            # +DTP:BITS:sign:dsa:N, +DTP:BITS::ffdh:N, +DTP:ML-DSA-65:signs:N,
            # +DTP:ML-KEM-768:encaps:N (and +DTP:rsa2048:keygen from 3.5: skipped).
            if ($2 ~ /^[0-9]+$/) {
                if ($4 == "rsa") { op = "rsa" $2 "_" ($3 == "private" ? "sign" : "verify") }
                else if ($4 ~ /^rsa /) { op = "rsa" $2 "_" substr($4, 5) }
                else if ($4 == "ffdh") { op = "ffdh" $2 }
                else { op = $4 $2 "_" $3 }
            } else if ($2 ~ /^ML-(DSA|KEM)/) { op = $2 "_" ($3 == "signs" ? "sign" : $3) }
            else { op = "" }
            next
        }
        /^\+R[0-9]+:/ { if (op != "" && $4 > 0) printf "%s %s %.1f\n", pre, op, $2 / $4; op = "" }'
}

sides=(stock)
for c in "${configs[@]}"; do sides+=("${c%%=*}"); done
vers=($versions)
echo "# $(date -u '+%F %T UTC') $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
for v in "${vers[@]}"; do echo "# $v: $($(ossl "$v") version)"; done
echo "# openssl speed -mr -seconds $secs $algs; $rounds rounds; shim configurations: ${configs[*]}"
for r in $(seq 1 "$rounds"); do
    for i in "${!vers[@]}"; do
        v=${vers[$(( (i + r - 1) % ${#vers[@]} ))]}
        for j in "${!sides[@]}"; do
            run "$v" "${sides[$(( (j + r - 1) % ${#sides[@]} ))]}" "$r" >>"$out/all"
        done
    done
    echo "# round $r done, load $(cut -d' ' -f1 /proc/loadavg)"
done

python3 - "$out/all" "${vers[0]}" "${sides[@]}" <<'PY'
import sys, statistics as st
path, ref, sides = sys.argv[1], sys.argv[2], sys.argv[3:]
rate = {}
for line in open(path):
    ver, side, rnd, op, v = line.split()
    rate.setdefault((ver, op), {}).setdefault(side, {})[rnd] = float(v)
name = lambda v: "1.1.1" if v == "11" else f"{v[0]}.{v[1]}"
print("| version | operation | stock/s | " + " | ".join(f"{s}/s | ratio of medians | per round: median [min-max]" for s in sides[1:]) + " |")
print("|---|---|---:|" + "---:|---:|---:|" * (len(sides) - 1))
ratio = {}
for (ver, op) in sorted(rate, key=lambda k: (k[1], k[0])):
    d = rate[(ver, op)]
    if "stock" not in d:
        continue
    cells = [f"{st.median(d['stock'].values()):.0f}"]
    for s in sides[1:]:
        rounds = [r for r in d.get(s, {}) if r in d["stock"]]
        if not rounds:
            cells += ["", "", ""]
            continue
        m = st.median(d[s][r] for r in rounds) / st.median(d["stock"][r] for r in rounds)
        per = [d[s][r] / d["stock"][r] for r in rounds]
        ratio[(ver, op, s)] = st.median(per)
        cells += [f"{st.median(d[s][r] for r in rounds):.0f}", f"{m:.2f}x",
                  f"{st.median(per):.2f}x [{min(per):.2f}-{max(per):.2f}]"]
    print(f"| {name(ver)} | {op} | " + " | ".join(cells) + " |")
print()
print(f"Speed-up relative to {name(ref)}'s (each version's median per-round shim/stock divided by {name(ref)}'s):")
print()
print("| operation | configuration | " + " | ".join(name(v) for v in sorted({k[0] for k in ratio})) + " |")
print("|---|---|" + "---:|" * len({k[0] for k in ratio}))
for op in sorted({k[1] for k in ratio}):
    for s in sides[1:]:
        if (ref, op, s) not in ratio:
            continue
        cells = [f"{ratio[(v, op, s)] / ratio[(ref, op, s)]:.2f}" if (v, op, s) in ratio else ""
                 for v in sorted({k[0] for k in ratio})]
        print(f"| {op} | {s} | " + " | ".join(cells) + " |")
PY
