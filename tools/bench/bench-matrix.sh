#!/usr/bin/env bash
# The benchmark matrix (`make bench-matrix`, issue 25): shim/stock `openssl
# speed` ratios for every OpenSSL version x CPU mode, in one interleaved run,
# so that no cell where the shim is slower than the libcrypto in the process
# goes unseen. Each round visits every (version, mode) cell, in an order
# rotating round by round, and runs stock and the shim back to back (their
# order alternating); a cell's figure is the median of its per-round ratios.
# Prints one Markdown table (CPU model, versions and command above it) with
# every cell below 0.97x in bold and marked "<", then the stock rates.
#
# Usage: tools/bench/bench-matrix.sh [-r ROUNDS] [-s SECONDS] [-v "30 35 36 40"]
#            [-m "native noifma haswell avx512f"] [-a "ALGS"] [-o FILE]
#   -v  30 is the system's openssl, NN runs build/opensslNN (make openssl-versions; 11:
#       1.1.1, which has no ffdh)
#   -m  modes (docs/benchmarks.md, "CPU modes"): native; noifma (AVX-512 hidden
#       from stock, IFMA from the shim: Zen 2/3 class); haswell (ADX and
#       AVX-512 hidden from both); avx512f (IFMA only hidden: Skylake-SP class)
#   -a  `openssl speed` algorithms (default: rsa2048 rsa3072 rsa4096 ffdh2048
#       dsa2048 ecdhx25519 ed25519)
#   -o  also write the table to FILE
# Rates come from speed's summary lines (+F2 RSA, +F3 DSA, +F5 ECDH, +F6
# EdDSA, +F8 FFDH: operations per second of user CPU time at full precision),
# not from the per-test +R lines, whose time has two decimals.
# Holds /tmp/cryptoshim-bench.lock for the whole run (fuzz campaigns pause).
set -eu
cd "$(dirname "$0")/../.."
rounds=3 secs=1 versions="30 35 36 40" modes="native noifma haswell avx512f" outfile=
algs="rsa2048 rsa3072 rsa4096 ffdh2048 dsa2048 ecdhx25519 ed25519"
while getopts r:s:v:m:a:o: o; do
    case $o in
        r) rounds=$OPTARG ;;
        s) secs=$OPTARG ;;
        v) versions=$OPTARG ;;
        m) modes=$OPTARG ;;
        a) algs=$OPTARG ;;
        o) outfile=$OPTARG ;;
        *) sed -n '2,26p' "$0" >&2; exit 2 ;;
    esac
done
. tools/bench/versions.bash
need_builds bench-matrix "$versions"
for m in $modes; do
    case $m in native | noifma | haswell | avx512f) ;;
        *) echo "bench-matrix: unknown mode $m" >&2; exit 2 ;;
    esac
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
exec 9>/tmp/cryptoshim-bench.lock
flock 9

# mode_env MODE SIDE: the environment words of a mode for stock or shim.
mode_env() {
    case $1 in
        noifma) echo "OPENSSL_ia32cap=~0x0:~0xd0230000"
            [ "$2" = shim ] && echo "CRYPTOSHIM_CPU=-avx512f" ;;
        haswell) echo "OPENSSL_ia32cap=~0x0:~0xd02b0000"
            [ "$2" = shim ] && echo "CRYPTOSHIM_CPU=-adx,-avx512f" ;;
        avx512f) echo "OPENSSL_ia32cap=~0x0:~0x200000"
            [ "$2" = shim ] && echo "CRYPTOSHIM_CPU=-avx512ifma" ;;
    esac
    [ "$2" = shim ] && echo "LD_PRELOAD=$lib"
    return 0
}

# algs_of VER: the algorithms VER's speed knows (1.1.1 has no ffdh, and
# one unknown name fails the whole command).
algs_of() { if [ "$1" = 11 ]; then echo "${algs/ ffdh2048/}"; else echo "$algs"; fi; }

# run VER MODE SIDE ROUND: one `openssl speed -mr`; lines "VER MODE SIDE ROUND OP RATE".
run() {
    local envs
    mapfile -t envs < <(mode_env "$2" "$3")
    # shellcheck disable=SC2086
    env -u LD_PRELOAD -u CRYPTOSHIM_KERNELS -u CRYPTOSHIM_POLICY -u CRYPTOSHIM_CPU \
        -u OPENSSL_ia32cap "${envs[@]}" $(ossl "$1") speed -mr -seconds "$secs" $(algs_of "$1") 2>&1 |
        awk -v pre="$1 $2 $3 $4" -v v4="$([ "$1" = 40 ] && echo 1)" -F: '
        # +F2:K:BITS:SIGN/S:VERIFY/S[:ENC/S:DEC/S] (RSA), +F3:K:BITS:SIGN/S:VERIFY/S (DSA),
        # +F5:K:BITS:DERIVE/S:SECONDS (ECDH; 253 bits is X25519); EdDSA and FFDH moved in
        # 4.0: +F6:K:BITS:NAME:SIGN/S:VERIFY/S and +F8:K:BITS:DERIVE/S:SECONDS before,
        # +F4:K:BITS:SIGN/S:VERIFY/S and +F7:K:BITS:DERIVE/S:SECONDS from 4.0 on.
        function out(op, r) { if (r + 0 > 0 && r + 0 < 1e9) printf "%s %s %.1f\n", pre, op, r }
        $1 == "+F2" { out("rsa" $3 "_sign", $4); out("rsa" $3 "_verify", $5) }
        $1 == "+F3" { out("dsa" $3 "_sign", $4); out("dsa" $3 "_verify", $5) }
        $1 == "+F5" && $3 == 253 { out("x25519_derive", $4) }
        !v4 && $1 == "+F6" && $4 == "Ed25519" { out("ed25519_sign", $5); out("ed25519_verify", $6) }
        v4 && $1 == "+F4" && $3 == 253 { out("ed25519_sign", $4); out("ed25519_verify", $5) }
        $1 == (v4 ? "+F7" : "+F8") && $3 ~ /^[0-9]+$/ { out("ffdh" $3, $4) }'
}

cells=()
for v in $versions; do for m in $modes; do cells+=("$v:$m"); done; done
{
    echo "# $(date -u '+%F %T UTC'), $(lscpu | sed -n 's/^Model name: *//p')" \
         "(family $(lscpu | sed -n 's/^CPU family: *//p'), model $(lscpu | sed -n 's/^Model: *//p')), $(nproc) CPUs"
    for v in $versions; do echo "# $v: $($(ossl "$v") version)"; done
    echo "# openssl speed -mr -seconds $secs $algs; $rounds rounds, stock and shim back to back per cell"
} >"$out/head"
cat "$out/head" >&2
for r in $(seq 1 "$rounds"); do
    for i in "${!cells[@]}"; do
        c=${cells[$(( (i + r - 1) % ${#cells[@]} ))]}
        v=${c%%:*} m=${c#*:}
        if [ $(( (i + r) % 2 )) = 0 ]; then first=stock second=shim; else first=shim second=stock; fi
        run "$v" "$m" "$first" "$r" >>"$out/all"
        run "$v" "$m" "$second" "$r" >>"$out/all"
    done
    echo "# round $r of $rounds done, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

python3 - "$out/all" "$versions" "$modes" >"$out/table" <<'PY'
import sys, statistics as st
path, versions, modes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
rate = {}
for line in open(path):
    ver, mode, side, rnd, op, v = line.split()
    op = op.replace("_", " ")
    rate.setdefault((ver, mode, op), {}).setdefault(side, {})[rnd] = float(v)
name = lambda v: f"{v[0]}.{v[1]}"
order = ["rsa2048 sign", "rsa2048 verify", "rsa3072 sign", "rsa3072 verify", "rsa4096 sign",
         "rsa4096 verify", "ffdh2048", "dsa2048 sign", "dsa2048 verify", "x25519 derive",
         "ed25519 sign", "ed25519 verify"]
seen = {k[2] for k in rate}
ops = [o for o in order if o in seen] + sorted(seen - set(order))
cols = [(v, m) for v in versions for m in modes]
low = 0
def ratio(v, m, op):
    d = rate.get((v, m, op), {})
    rounds = [r for r in d.get("shim", {}) if r in d.get("stock", {})]
    if not rounds:
        return None
    return st.median(d["shim"][r] / d["stock"][r] for r in rounds)
print("| operation | " + " | ".join(f"{name(v)} {m}" for v, m in cols) + " |")
print("|---|" + "---:|" * len(cols))
for op in ops:
    cells = []
    for v, m in cols:
        x = ratio(v, m, op)
        if x is None:
            cells.append("-")
        elif x < 0.97:
            low += 1
            cells.append(f"**{x:.2f}x** <")
        else:
            cells.append(f"{x:.2f}x")
    print(f"| {op} | " + " | ".join(cells) + " |")
print()
print(f"Cells below 0.97x (bold, <): {low}. Stock rates (operations per second, median of rounds):")
print()
print("| operation | " + " | ".join(f"{name(v)} {m}" for v, m in cols) + " |")
print("|---|" + "---:|" * len(cols))
for op in ops:
    cells = []
    for v, m in cols:
        d = rate.get((v, m, op), {}).get("stock")
        cells.append(f"{st.median(d.values()):.0f}" if d else "-")
    print(f"| {op} | " + " | ".join(cells) + " |")
PY
cat "$out/head" "$out/table"
[ -z "$outfile" ] || cat "$out/head" "$out/table" >"$outfile"
