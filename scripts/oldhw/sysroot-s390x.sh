#!/usr/bin/env bash
# Downloads Debian's s390x openssl, libssl3 and C library packages (through
# the private apt of apt-private.sh: nothing is installed) and unpacks them
# into DEST (default build/sysroot-s390x), for `qemu-s390x -L DEST`.
# Idempotent: does nothing once DEST/.done exists.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DEST=${1:-build/sysroot-s390x}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
[ -f "$DEST/.done" ] && exit 0
APT=$(dirname "$DEST")/oldhw/apt-s390x
DEBS=$(dirname "$DEST")/oldhw/debs-s390x
mkdir -p "$DEBS"
"$ROOT/scripts/oldhw/apt-private.sh" "$APT" s390x update >/dev/null
suite=$(awk '$1 == "deb" { print $(NF - 1); exit }' "$APT/etc/sources.list")
cd "$DEBS"
for pkg in openssl libssl3 libc6 libgcc-s1 zlib1g libzstd1; do
    # The security suite may list versions its mirror no longer holds: fall
    # back to the release suite's.
    ls ${pkg}_*_s390x.deb >/dev/null 2>&1 ||
        "$ROOT/scripts/oldhw/apt-private.sh" "$APT" s390x download "$pkg" >/dev/null 2>&1 ||
        "$ROOT/scripts/oldhw/apt-private.sh" "$APT" s390x download "$pkg/$suite" >/dev/null
done
for deb in *.deb; do
    dpkg-deb -x "$deb" "$DEST"
done
touch "$DEST/.done"
