#!/usr/bin/env bash
# Builds the SPARC v7 OpenSSL of the old-hardware story: Debian's openssl
# source package (apt-get source with a private apt state, see
# apt-private.sh), configured linux-generic32 no-asm -mcpu=v7 for 32-bit
# SPARC, so neither libcrypto nor the openssl program can use the v8
# multiply/divide. The compiler's helper routines come from
# kernels/bn/sparc/v7_*.{S,c} (software, mulscc-based), linked into every
# module, so the C library's and libgcc's v8 versions are never bound.
# Result: DEST/install/usr/local/{bin/openssl,lib/libcrypto.so.3,...}.
# libatomic: 32-bit SPARC has no compare-and-swap, so C11 atomics are calls.
# It goes in LDLIBS: Configure refuses a bare -latomic beside LDFLAGS=.
# Idempotent: skips the build once DEST/.done exists. Slow (about 30-60
# minutes on one core); runs nice'd and with one job.
# Usage: build-openssl-v7.sh [DEST]   (default build/oldhw/openssl-v7)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DEST=${1:-build/oldhw/openssl-v7}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
[ -f "$DEST/.done" ] && exit 0
CROSS=sparc64-linux-gnu-
CC="${CROSS}gcc -m32 -mcpu=v7"
JOBS=${OLDHW_JOBS:-1}

# 1. Source (cached).
SRC=$(ls -d "$DEST"/src/openssl-*/ 2>/dev/null | head -1 || true)
if [ -z "$SRC" ]; then
    mkdir -p "$DEST/src"
    scripts/oldhw/apt-private.sh "$DEST/apt" amd64 update >/dev/null
    suite=$(awk '$1 == "deb-src" { print $(NF - 1); exit }' "$DEST/apt/etc/sources.list")
    # The security archive may list a version its pool no longer holds: fall
    # back to the release suite's version.
    (cd "$DEST/src" && { "$ROOT/scripts/oldhw/apt-private.sh" "$DEST/apt" amd64 source openssl ||
        { rm -rf openssl*; "$ROOT/scripts/oldhw/apt-private.sh" "$DEST/apt" amd64 source "openssl/$suite"; }; }) >"$DEST/fetch.log" 2>&1
    SRC=$(ls -d "$DEST"/src/openssl-*/ | head -1)
fi

# 2. The v7 helper routines, position independent (linked into shared objects).
RT=$DEST/v7rt
mkdir -p "$RT"
$CC -O2 -fPIC -c kernels/bn/sparc/v7_mul.S -o "$RT/v7_mul.o"
$CC -O2 -fPIC -c kernels/bn/sparc/v7_arith.c -o "$RT/v7_arith.o"

# 3. Configure and build out of tree.
OBJ=$DEST/obj
mkdir -p "$OBJ"
cd "$OBJ"
if [ ! -f Makefile ]; then
    "$SRC/Configure" linux-generic32 no-asm shared no-tests no-engine \
        --cross-compile-prefix=$CROSS --prefix=/usr/local --libdir=lib \
        --openssldir=/usr/local/ssl "CFLAGS=-O2 -m32 -mcpu=v7" \
        "LDFLAGS=-m32 $RT/v7_mul.o $RT/v7_arith.o" "LDLIBS=-latomic" >"$DEST/configure.log" 2>&1 ||
        { rm -f Makefile; echo "Configure failed, see $DEST/configure.log" >&2; tail -5 "$DEST/configure.log" >&2; exit 1; }
fi
nice -n 10 make -j"$JOBS" build_sw >"$DEST/build.log" 2>&1
rm -rf "$DEST/install"
make DESTDIR="$DEST/install" install_sw >"$DEST/install.log" 2>&1
touch "$DEST/.done"
