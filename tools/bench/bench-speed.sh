#!/usr/bin/env bash
# A/B `openssl speed`: stock libcrypto (A) against the same binary with
# build/libcryptoshim.so preloaded (B), alternated ABBA over several rounds in
# one run so machine load hits both alike. Prints per-round rates, then per
# operation the median rate of A and B and the ratio B/A of the medians (and
# the lowest and highest per-round ratio).
#
# Usage: tools/bench/bench-speed.sh [-r ROUNDS] [-s SECONDS] [-m MODE] [-a LIB] [ALG...]
#   -a LIB    A is not stock: LIB (e.g. another build's libcryptoshim.so) is
#             preloaded on the A side too, with the same CRYPTOSHIM_CPU and
#             CRYPTOSHIM_POLICY as B, so two shim builds are compared.
#   MODE native   (default) both see every CPU feature;
#        haswell  both see a Haswell-class CPU: libcrypto with ADX and AVX-512
#                 hidden (OPENSSL_ia32cap=~0x0:~0xd02b0000), the shim with
#                 CRYPTOSHIM_CPU=-adx,-avx512f;
#        noadx    only ADX hidden (OPENSSL_ia32cap=~0x0:~0x80000, CRYPTOSHIM_CPU=-adx);
#        noifma   AVX-512 hidden, ADX visible (Zen 2/3 class):
#                 OPENSSL_ia32cap=~0x0:~0xd0230000, CRYPTOSHIM_CPU=-avx512f
#                 (-avx512f hides every AVX-512 kernel; -avx512ifma keeps AVX-512F);
#        avx512f  IFMA hidden only, AVX-512F visible (Skylake-SP/Cascade Lake):
#                 OPENSSL_ia32cap=~0x0:~0x200000, CRYPTOSHIM_CPU=-avx512ifma.
#   Takes no lock: run it under `flock /tmp/cryptoshim-bench.lock`.
#   CRYPTOSHIM_POLICY in the environment is passed to the shim side (B).
#   ALG defaults to: rsa2048 rsa3072 rsa4096 ffdh2048 dsa2048
set -eu
cd "$(dirname "$0")/../.."
rounds=3 secs=3 mode=native alib=
while getopts r:s:m:a: o; do
    case $o in
        r) rounds=$OPTARG ;;
        s) secs=$OPTARG ;;
        m) mode=$OPTARG ;;
        a) alib=$(realpath "$OPTARG") ;;
        *) sed -n '2,26p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
algs=${*:-rsa2048 rsa3072 rsa4096 ffdh2048 dsa2048}
lib=$(pwd)/${BUILD:-build}/libcryptoshim.so
[ -f "$lib" ] || { echo "bench-speed: $lib not built" >&2; exit 1; }
[ -z "$alib" ] || [ -f "$alib" ] || { echo "bench-speed: $alib not found" >&2; exit 1; }
case $mode in
    native) cap= ; cpu= ;;
    haswell) cap='~0x0:~0xd02b0000' ; cpu='-adx,-avx512f' ;;
    noadx) cap='~0x0:~0x80000' ; cpu='-adx' ;;
    noifma) cap='~0x0:~0xd0230000' ; cpu='-avx512f' ;;
    avx512f) cap='~0x0:~0x200000' ; cpu='-avx512ifma' ;;
    *) echo "bench-speed: unknown mode $mode" >&2; exit 2 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run A|B ROUND: one `openssl speed -mr` run, its +F lines kept.
run() {
    local env=(env -u LD_PRELOAD -u CRYPTOSHIM_CPU -u CRYPTOSHIM_POLICY)
    [ -n "$cap" ] && env+=("OPENSSL_ia32cap=$cap")
    if [ "$1" = B ] || [ -n "$alib" ]; then
        if [ "$1" = B ]; then env+=("LD_PRELOAD=$lib"); else env+=("LD_PRELOAD=$alib"); fi
        [ -n "$cpu" ] && env+=("CRYPTOSHIM_CPU=$cpu")
        [ -n "${CRYPTOSHIM_POLICY:-}" ] && env+=("CRYPTOSHIM_POLICY=$CRYPTOSHIM_POLICY")
    fi
    # shellcheck disable=SC2086
    "${env[@]}" openssl speed -mr -seconds "$secs" $algs 2>/dev/null | grep '^+F' >"$out/$1.$2"
}

echo "# $(date -u '+%F %T UTC') $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
     "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# A: ${alib:-stock libcrypto}; B: $lib"
echo "# openssl speed -mr -seconds $secs $algs; mode $mode${cap:+ (OPENSSL_ia32cap=$cap)}${cpu:+, shim CRYPTOSHIM_CPU=$cpu}${CRYPTOSHIM_POLICY:+, CRYPTOSHIM_POLICY=$CRYPTOSHIM_POLICY}"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then run A "$r"; run B "$r"; else run B "$r"; run A "$r"; fi
    echo "# round $r done, load $(cut -d' ' -f1 /proc/loadavg)"
done

# Each +F line becomes "name rate" pairs: RSA/DSA/EdDSA sign and verify, FFDH ops.
for f in "$out"/[AB].*; do
    awk -F: -v side="$(basename "$f" | cut -d. -f1)" -v round="$(basename "$f" | cut -d. -f2)" '
        $1 == "+F2" { print side, round, "rsa" $3 "_sign", $4; print side, round, "rsa" $3 "_verify", $5 }
        $1 == "+F3" { print side, round, "dsa" $3 "_sign", $4; print side, round, "dsa" $3 "_verify", $5 }
        $1 == "+F6" { print side, round, tolower($4) "_sign", $5; print side, round, tolower($4) "_verify", $6 }
        $1 == "+F8" { print side, round, "ffdh" $3, $4 }' "$f"
done | sort -k3,3 -k2,2n -k1,1 >"$out/all"

if [ -n "$alib" ]; then acol=A/s bcol=B/s; else acol=stock/s bcol=shim/s; fi
printf '%-16s %12s %12s %7s %7s %7s\n' op "$acol" "$bcol" ratio min max
awk '
    { v[$3, $1, $2] = $4; ops[$3] = 1; rounds[$2] = 1 }
    function median(arr, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
        return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
    }
    END {
        for (op in ops) {
            n = 0; lo = 1e9; hi = 0
            for (r in rounds) if ((op, "A", r) in v && (op, "B", r) in v) {
                n++; a[n] = v[op, "A", r]; b[n] = v[op, "B", r]
                q = b[n] / a[n]; if (q < lo) lo = q; if (q > hi) hi = q
            }
            if (!n) continue
            ma = median(a, n); mb = median(b, n)
            printf "%-16s %12.1f %12.1f %6.2fx %6.2fx %6.2fx\n", op, ma, mb, mb / ma, lo, hi
        }
    }' "$out/all" | sort
