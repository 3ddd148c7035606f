#!/usr/bin/env bash
# Our curve tables beside stock OpenSSL and s2n-bignum in one interleaved
# run (tools/bench/c25519_peer.c says what is timed and how). Links the
# harness with the peer's objects, already assembled outside the tree (the
# x86-64 curve25519/edwards25519 functions the harness's head comment
# names, one .o each, in PEER_OBJ_DIR; a file COMMIT there, if any, is
# printed as the peer's version), then runs it under the benchmark
# lock, after the machine's load, CPU model and the OpenSSL version.
# Run it again after a kernel change: it rebuilds what changed (nice 19).
# Usage: tools/bench/c25519-peer.sh PEER_OBJ_DIR [-l] [HARNESS OPTIONS]
#   -l  link only; options: -n N -r ROUNDS -m BYTES -p (default -n 300 -r 9)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
[ $# -ge 1 ] && [ -d "$1" ] || { sed -n '10,11s/^# //p' "$0" >&2; exit 2; }
objs=$(cd "$1" && pwd)
shift
link_only=0
if [ "${1:-}" = -l ]; then link_only=1; shift; fi
[ "$(uname -m)" = x86_64 ] || { echo "s2n-bignum's objects here are x86-64 only" >&2; exit 1; }
# the harness and the CLI objects it shares (bench loop, options, stock's calls)
parts=("$BUILD/bench/c25519_peer.o" "$BUILD"/obj/cli/{bench_util,args,bench_stock_c25519}.o
    "$BUILD/libcryptoshim_core.a")
nice -n 19 make -s -j2 BUILD="$BUILD" "${parts[@]}" >&2
nice -n 19 cc "${parts[@]}" "$objs"/*.o -lcrypto -ldl -pthread -o "$BUILD/c25519_peer"
[ "$link_only" = 1 ] && { echo "$BUILD/c25519_peer"; exit 0; }
[ $# -gt 0 ] || set -- -n 300 -r 9
echo "$(date -u '+%F %T UTC'); $(uptime | sed 's/.*load/load/')"
lscpu | grep 'Model name' | sed 's/  */ /g'
echo "cryptoshim $(git rev-parse --short HEAD 2>/dev/null || echo '?'); peer objects $objs" \
    "$(cat "$objs/COMMIT" 2>/dev/null || true)"
echo "$BUILD/c25519_peer $*"
flock /tmp/cryptoshim-bench.lock "$BUILD/c25519_peer" "$@"
echo "after: $(uptime | sed 's/.*load/load/')"
