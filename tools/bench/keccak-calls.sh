#!/usr/bin/env bash
# Keccak permutations per ML-DSA operation, exactly: callgrind call counts of
# every cs_keccakf1600_* function in tools/bench/mldsa_loop over 2N
# operations less those over N, divided by N (so mldsa_loop's one-off
# set-up, a keygen, a signature and two key preparations, cancels). With per-call
# costs from `cryptoshim bench mldsa -k` this gives the Keccak floor of each
# operation (docs/benchmarks.md). valgrind runs no AVX-512, so KERNEL is
# portable or avx2.
# Usage: tools/bench/keccak-calls.sh [-n N] KERNEL [SET...]
set -eu
cd "$(dirname "$0")/../.."
n=200
while getopts n: o; do
    case $o in
        n) n=$OPTARG ;;
        *) sed -n '2,10p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
kernel=$1
shift
sets=${*:-44 65 87}
BUILD=${BUILD:-build}
[ -f "$BUILD/libcryptoshim_core.a" ] || { echo "keccak-calls: make first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
make -s BUILD="$BUILD" "$BUILD/bench/mldsa_loop" >&2
printf '| set | op | permutation | calls per op |\n|---|---|---|---:|\n'
for ps in $sets; do
    for op in keygen sign verify signp verifyp; do
        for m in "$n" $((2 * n)); do
            valgrind -q --tool=callgrind --callgrind-out-file="$out/cg.$m" \
                "$BUILD/bench/mldsa_loop" "$kernel" "$ps" "$op" "$m"
        done
        # fn=/cfn= lines name a function the first time its id appears (ids
        # are per file); calls=K follows each cfn= line.
        awk -v n="$n" -v ps="$ps" -v op="$op" '
            FNR == 1 { f++; delete name }
            /^c?fn=\([0-9]+\) / { id = $1; sub(/^c?fn=/, "", id); name[id] = $2 }
            /^cfn=/ { id = $1; sub(/^cfn=/, "", id); cur = name[id]; next }
            /^calls=/ && cur != "" { split($1, a, "="); calls[cur] += (f == 2 ? 1 : -1) * a[2]; cur = "" }
            END { for (fn in calls) if (fn ~ /^cs_keccakf1600/)
                      printf "| %s | %s | %s | %.2f |\n", ps, op, fn, calls[fn] / n }' \
            "$out/cg.$n" "$out/cg.$((2 * n))" | sort
    done
done
