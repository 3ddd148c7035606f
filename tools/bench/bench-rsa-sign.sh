#!/usr/bin/env bash
# RSA signing end to end in thread CPU time under several OpenSSL versions:
# each round runs, for every version, one build/bench/rsa_sign_loop process
# stock and one per shim configuration, their order rotating round by round.
# A process times CALLS signatures one by one; its minimum is the
# undisturbed cost (constant-time code does the same work every call), its
# mean what the machine's other work left of it. Prints per version and
# configuration: the median over rounds of stock's and the side's minimum
# (us), the median per-round ratio stock/side of the minima [quartiles], the
# same of the means, and the whole-run ratio (every call of every round).
# Why: docs/benchmarks.md, "RSA signing end to end in CPU time on Zen 3".
#
# Usage: tools/bench/bench-rsa-sign.sh [-r ROUNDS] [-n CALLS] [-v "30 40"]
#            [-c NAME=ENV[,ENV...]]... [-p CPU] [-V] BITS...
#   -v  versions as bench-versions.sh takes them (40: build/bench/rsa_sign_loop40)
#   -c  a shim configuration, as bench-versions.sh's (default: "shim", built-in)
#   -p  pin every process to this CPU (taskset); -V time verification instead
#   BITS  RSA key sizes (2048 3072 ...): keys made once under build/bench/keys
set -eu
cd "$(dirname "$0")/../.."
rounds=30 calls=30 versions="30 40" configs=() cpu='' verify=''
while getopts r:n:v:c:p:V o; do
    case $o in
        r) rounds=$OPTARG ;;
        n) calls=$OPTARG ;;
        v) versions=$OPTARG ;;
        c) configs+=("$OPTARG") ;;
        p) cpu=$OPTARG ;;
        V) verify=-V ;;
        *) sed -n '2,19p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
[ ${#configs[@]} -gt 0 ] || configs=(shim=)
. tools/bench/versions.bash
need_builds bench-rsa-sign "$versions"
bench=$BUILD/bench

# loop VER: the loop program for version VER (3.x: the system-built one, through the tree's
# loader for 3.5 and 3.6; 4.0: the one linked against libcrypto.so.4), or exits.
loop() {
    local p=$bench/rsa_sign_loop
    case $1 in 30) ;; 3?) ;; 40) p=${p}40 ;; *) echo "bench-rsa-sign: no loop for $1" >&2; exit 1 ;; esac
    [ -x "$p" ] || { echo "bench-rsa-sign: $p missing (make bench-tools)" >&2; exit 1; }
    echo "$p"
}
for v in $versions; do loop "$v" >/dev/null; done
mkdir -p "$bench/keys"
for bits in "$@"; do
    [ -s "$bench/keys/rsa$bits.pem" ] ||
        openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:$bits" -out "$bench/keys/rsa$bits.pem" 2>/dev/null
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run VER SIDE BITS ROUND: one loop process; a line "BITS VER ROUND SIDE min p10 p25 med mean".
run() {
    local ver=$1 side=$2 env prog
    prog=("$(loop "$ver")")
    [ "$ver" = 30 ] || prog=("$BUILD/openssl$ver/bin/run" "${prog[@]}")
    side_env "$side" "${configs[@]}"
    [ -z "$cpu" ] || env=(taskset -c "$cpu" "${env[@]}")
    echo "$3 $ver $4 $side $("${env[@]}" "${prog[@]}" -n "$calls" $verify "$bench/keys/rsa$3.pem")"
}

sides=(stock)
for c in "${configs[@]}"; do sides+=("${c%%=*}"); done
echo "# $(date -u '+%F %T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds of $calls calls${cpu:+, CPU $cpu}"
for r in $(seq 1 "$rounds"); do
    for bits in "$@"; do
        for v in $versions; do
            for j in "${!sides[@]}"; do
                run "$v" "${sides[$(((j + r) % ${#sides[@]}))]}" "$bits" "$r" >>"$out"
            done
        done
    done
done
echo "# done $(date -u '+%T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'EOF'
import statistics as st, sys
from collections import defaultdict
runs = defaultdict(dict)  # (bits, ver, round) -> side -> [min, p10, p25, med, mean]
for line in open(sys.argv[1]):
    f = line.split()
    runs[tuple(f[:3])][f[3]] = [float(x) for x in f[4:9]]
def quart(v):
    q = st.quantiles(v, n=4) if len(v) > 1 else v * 3
    return f"{st.median(v):.3f} [{q[0]:.3f}-{q[2]:.3f}]"
for bits, ver in sorted({k[:2] for k in runs}):
    rs = [s for k, s in runs.items() if k[:2] == (bits, ver)]
    for side in sorted({x for s in rs for x in s} - {"stock"}):
        both = [s for s in rs if side in s and "stock" in s]
        mins = [s["stock"][0] / s[side][0] for s in both]
        means = [s["stock"][4] / s[side][4] for s in both]
        whole = sum(s["stock"][4] for s in both) / sum(s[side][4] for s in both)
        print(f"rsa{bits} {ver} {side}: minimum stock {st.median(s['stock'][0] for s in both):.1f} us, "
              f"{side} {st.median(s[side][0] for s in both):.1f} us; stock/{side} minima {quart(mins)}, "
              f"means {quart(means)}, whole run {whole:.3f} ({len(both)} rounds)")
EOF
