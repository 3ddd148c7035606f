#!/usr/bin/env bash
# Builds DEST/insn_count.so (scripts/oldhw/insn_count.c), the QEMU plugin
# counting guest instructions. Debian ships no plugin API header in a binary
# package, so qemu-plugin.h is taken from Debian's qemu source package
# (matching the installed qemu-user's release) through the private apt of
# apt-private.sh. Idempotent.
# Usage: build-plugin.sh [DEST]   (default build/oldhw/plugin)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DEST=${1:-build/oldhw/plugin}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
if [ ! -f "$DEST/include/qemu-plugin.h" ]; then
    mkdir -p "$DEST/src" "$DEST/include"
    "$ROOT/scripts/oldhw/apt-private.sh" "$DEST/apt" amd64 update >/dev/null
    suite=$(awk '$1 == "deb-src" { print $(NF - 1); exit }' "$DEST/apt/etc/sources.list")
    (cd "$DEST/src" && "$ROOT/scripts/oldhw/apt-private.sh" "$DEST/apt" amd64 source \
        --download-only "qemu/$suite") >"$DEST/fetch.log" 2>&1
    tarball=$(ls "$DEST"/src/qemu_*.orig.tar.* | head -1)
    # One pass, no early-closing pipe (under pipefail, grep -m1 would kill
    # tar with SIGPIPE and the script with it).
    tar -xf "$tarball" -C "$DEST/src" --wildcards '*/include/qemu/qemu-plugin.h'
    member=$(cd "$DEST/src" && find . -path '*/include/qemu/qemu-plugin.h' | head -1)
    cp "$DEST/src/$member" "$DEST/include/qemu-plugin.h"
    rm -f "$DEST"/src/qemu_*
fi
if [ ! -f "$DEST/insn_count.so" ] || [ scripts/oldhw/insn_count.c -nt "$DEST/insn_count.so" ]; then
    gcc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC -I"$DEST/include" \
        -o "$DEST/insn_count.so" scripts/oldhw/insn_count.c
fi
