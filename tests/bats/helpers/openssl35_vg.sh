#!/usr/bin/env bash
# openssl35_vg.sh TREE DEST: makes OpenSSL 3.5's unpacked loader usable under
# valgrind (which must find the loader's strlen, a symbol Debian strips):
# fetches libc6-dbg of the very libc6 version in TREE (with TREE's own apt
# configuration, installing nothing), and writes DEST/ld-linux-x86-64.so.2,
# the loader with a debug link to its decompressed debug file beside it
# (valgrind 3.19 reads neither zstd sections nor a link whose CRC differs).
# Run the driver as: DEST/ld-linux-x86-64.so.2 --library-path TREE/root/...
# Idempotent (DEST/.done). When the archive no longer carries that
# libc6-dbg, DEST/.missing says so and the test skips with that message.
set -eu
TREE=$(cd "$1" && pwd) DEST=$2
[ -f "$DEST/.done" ] && exit 0
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd) # apt needs absolute paths
APT=$TREE/apt
LIB=$TREE/root/usr/lib/x86_64-linux-gnu
deb=$(ls "$APT"/debs/libc6_*.deb | head -1)
ver=$(dpkg-deb -f "$deb" Version)
rm -rf "$DEST"
mkdir -p "$DEST/dl" "$DEST/x"
aptopts=(
    -o "Dir::State=$APT/state" -o "Dir::State::status=$APT/state/status"
    -o "Dir::Cache=$APT/cache" -o "Dir::Etc::sourcelist=$APT/etc/sources.list"
    -o "Dir::Etc::sourceparts=$APT/etc/sources.list.d"
    -o "Dir::Etc::preferences=$APT/etc/preferences"
    -o "Dir::Etc::preferencesparts=$APT/etc/preferences.d"
    -o "APT::Architecture=amd64" -o "APT::Architectures=amd64" -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=$(id -un)"
)
if ! (cd "$DEST/dl" && apt-get -q "${aptopts[@]}" download "libc6-dbg=$ver") >"$DEST/download.log" 2>&1; then
    echo "Debian does not carry libc6-dbg $ver now (needed to run 3.5's loader under valgrind)" >"$DEST/.missing"
    exit 0
fi
dpkg -x "$DEST"/dl/libc6-dbg_*.deb "$DEST/x"
id=$(readelf -n "$LIB/ld-linux-x86-64.so.2" | awk '/Build ID/ { print $3 }')
dbg=$DEST/x/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
objcopy --decompress-debug-sections "$dbg" "$DEST/ld-linux-x86-64.so.2.debug"
objcopy --remove-section=.gnu_debuglink "$LIB/ld-linux-x86-64.so.2" "$DEST/ld.tmp"
(cd "$DEST" && objcopy --add-gnu-debuglink=ld-linux-x86-64.so.2.debug ld.tmp ld-linux-x86-64.so.2)
chmod +x "$DEST/ld-linux-x86-64.so.2"
rm -rf "$DEST/dl" "$DEST/x" "$DEST/ld.tmp"
touch "$DEST/.done"
