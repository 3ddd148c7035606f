#!/usr/bin/env bash
# Usage: fetch-debian-openssl.sh [--arch ARCH] DEST SUITE[,SUITE...] PACKAGE[/SUITE]...
# Fetches another Debian release's OpenSSL (the `openssl` program, its
# libssl/libcrypto package and the runtime libraries they need) into DEST
# without installing anything on the system, and writes DEST/bin/openssl, a
# wrapper that runs the unpacked binary through the unpacked dynamic loader
# so LD_PRELOAD in the environment still applies, and DEST/bin/run, the same
# for any program (`DEST/bin/run /usr/sbin/sshd -D ...`). Idempotent: does
# nothing once DEST/.done exists. Used for OpenSSL 1.1.1 (Debian 11), 3.5
# (Debian 13), 3.6 (sid) and 4.0 (experimental with sid's C library):
# `make openssl11|openssl35|openssl36|openssl40`, whose suites and packages
# are the rows of mk/openssl_builds.mk.
#
# Several suites may be listed; PACKAGE/SUITE takes that package from that
# suite (experimental is never a default candidate). DEST/VERSION records
# the unpacked packages' versions. Sid and experimental are moving suites: a
# package they no longer carry is not an error of ours, so it is reported,
# naming the suite, on stderr and in DEST/.missing (the tests skip with that
# text) and the script exits 0. Other failures (no network, no source) exit 1.
#
# apt runs with a private state, cache and source list. The sources are
# derived from the machine's configured Debian sources (so whatever mirror
# this machine uses), keeping only Debian archive entries and replacing the
# release suite with each SUITE. No host name is written here.
#
# --arch ARCH fetches another Debian architecture's packages (s390x, for the
# old-hardware measurements of scripts/oldhw/s390x-e2e.sh). The wrappers then
# run the unpacked loader under qemu-user (qemu-s390x, or $QEMU_USER when set
# at run time); an LD_PRELOAD in the environment goes to the guest only
# (qemu's -E), not to qemu itself. Without --arch: this machine's
# architecture, which must be amd64.
set -euo pipefail

ARCH=$(dpkg --print-architecture)
FOREIGN=
if [ "${1:-}" = --arch ] && [ $# -ge 2 ]; then
    [ "$2" != "$ARCH" ] && FOREIGN=$2
    ARCH=$2
    shift 2
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 [--arch ARCH] DEST SUITE[,SUITE...] PACKAGE[/SUITE]..." >&2
    exit 2
fi
DEST=$1 SUITES=$2
shift 2
PKGS=("$@")
QEMU_USER=
case $ARCH in
    amd64) MULTIARCH=x86_64-linux-gnu ;;
    s390x) MULTIARCH=s390x-linux-gnu QEMU_USER=qemu-s390x ;;
    *) echo "fetch-debian-openssl: architecture $ARCH is not supported (amd64, s390x)" >&2
       exit 1 ;;
esac
if [ -n "$FOREIGN" ] && [ "$(dpkg --print-architecture)" != amd64 ]; then
    echo "fetch-debian-openssl: --arch needs an amd64 machine" >&2
    exit 1
fi

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
if [ -f "$DEST/.done" ] && [ -x "$DEST/bin/openssl" ] && [ -x "$DEST/bin/run" ]; then
    exit 0
fi
rm -f "$DEST/.done" "$DEST/.missing"

APT=$DEST/apt
mkdir -p "$APT/state/lists/partial" "$APT/cache/archives/partial" \
         "$APT/etc/sources.list.d" "$APT/etc/preferences.d" "$APT/debs"
: >"$APT/state/status"

# Keep the main archive's release suite only (not -security, -updates,
# -backports): the release suite alone has every package at a consistent
# version. The URI must look like a Debian archive (path ending in /debian).
list=$APT/etc/sources.list
: >"$list"
while read -r uri suite comps signed; do
    case $suite in *-*) continue ;; esac
    case ${uri%/} in */debian) ;; *) continue ;; esac
    opts="arch=$ARCH"
    [ "$signed" != "-" ] && opts="$opts signed-by=$signed"
    for s in ${SUITES//,/ }; do
        echo "deb [$opts] $uri $s ${comps//,/ }" >>"$list"
    done
done < <("$(dirname "$0")/debian-sources.sh" | sort -u)
if [ ! -s "$list" ]; then
    echo "fetch-debian-openssl: no Debian archive source configured in /etc/apt" >&2
    exit 1
fi

aptopts=(
    -o "Dir::State=$APT/state"
    -o "Dir::State::status=$APT/state/status"
    -o "Dir::Cache=$APT/cache"
    -o "Dir::Etc::sourcelist=$list"
    -o "Dir::Etc::sourceparts=$APT/etc/sources.list.d"
    -o "Dir::Etc::preferences=$APT/etc/preferences"
    -o "Dir::Etc::preferencesparts=$APT/etc/preferences.d"
    -o "APT::Architecture=$ARCH"
    -o "APT::Architectures=$ARCH"
    -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=$(id -un)"
)
apt-get -q "${aptopts[@]}" update >"$APT/update.log" 2>&1 || {
    cat "$APT/update.log" >&2
    exit 1
}
rm -f "$APT"/debs/*.deb
(cd "$APT/debs" && apt-get -q "${aptopts[@]}" download "${PKGS[@]}") >"$APT/download.log" 2>&1 || {
    # Packages the archive does not carry now (in the asked suite): name them.
    missing=$(sed -nE "s/^E: Unable to locate package (.*)/\1/p
        s/^E: Release '([^']*)' for '([^']*)' was not found/\2 in \1/p
        s/^E: Package '?([^' ]*)'? has no installation candidate/\1/p
        s/^E: Can't select candidate version from package ([^ ]*) .*/\1/p" \
        "$APT/download.log" | paste -sd' ')
    if [ -n "$missing" ]; then
        msg="Debian $SUITES does not carry $missing now (a moving suite; wanted: ${PKGS[*]})"
        echo "$msg" >"$DEST/.missing"
        echo "fetch-debian-openssl: $msg; the tests needing $DEST skip" >&2
        exit 0
    fi
    cat "$APT/download.log" >&2
    exit 1
}

ROOT=$DEST/root
rm -rf "$ROOT"
mkdir -p "$ROOT"
for deb in "$APT"/debs/*.deb; do
    dpkg -x "$deb" "$ROOT"
done

# Library directories of the unpacked tree (merged /usr or not).
libdirs=
for d in usr/lib/$MULTIARCH lib/$MULTIARCH; do
    [ -d "$ROOT/$d" ] || continue
    case ":$libdirs:" in *":$d:"*) continue ;; esac
    libdirs=${libdirs:+$libdirs:}$d
done
loader=
case $ARCH in
    amd64) loaders="usr/lib64/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2
                    usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ;;
    s390x) loaders="usr/lib/s390x-linux-gnu/ld64.so.1 lib/s390x-linux-gnu/ld64.so.1 usr/lib/ld64.so.1 lib/ld64.so.1" ;;
esac
for l in $loaders; do
    if [ -e "$ROOT/$l" ]; then loader=$l; break; fi
done
if [ ! -x "$ROOT/usr/bin/openssl" ]; then
    echo "fetch-debian-openssl: openssl binary missing after unpacking" >&2
    exit 1
fi
# Without libc6 among PACKAGES the system's own loader and C library run it
# (an older release's libcrypto on this newer C library; the shim, built
# here, needs this C library too).
loader_path=
if [ -z "$loader" ] && [ -n "$FOREIGN" ]; then
    echo "fetch-debian-openssl: no $ARCH dynamic loader unpacked (add libc6 to the packages)" >&2
    exit 1
elif [ -z "$loader" ]; then
    loader_path=/lib64/ld-linux-x86-64.so.2
# The loader may be an absolute symlink into the system; point at the file.
elif [ -L "$ROOT/$loader" ]; then
    target=$(readlink "$ROOT/$loader")
    case $target in /*) loader=${target#/} ;; *) loader=$(realpath -m --relative-to="$ROOT" "$ROOT/$(dirname "$loader")/$target") ;; esac
fi
# Debian 13 ships no module in libssl3t64 (legacy is its own package); the
# directory is still set so the system's 3.0 modules are never picked up.
modules=usr/lib/$MULTIARCH/ossl-modules

# write_wrapper NAME [PROGRAM]: DEST/bin/NAME runs PROGRAM (a path inside the
# tree), or without PROGRAM its first argument, through the loader with the
# unpacked libraries.
write_wrapper() {
    local name=$1 prog=${2:-} what=$1 run='"$@"'
    if [ -n "$prog" ]; then
        run="\"\$R/$prog\" \"\$@\""
    else
        what="program (first argument)"
    fi
    cat >"$DEST/bin/$name.tmp" <<EOF
#!/bin/sh
# Debian $SUITES's $what run through a dynamic loader and the unpacked
# libraries (written by scripts/fetch-debian-openssl.sh). LD_PRELOAD still
# applies: the loader reads it from the environment. Configuration and modules
# default to the unpacked tree's; set OPENSSL_CONF / OPENSSL_MODULES to override.
# No subprocess here: each one would also get the preloaded library.
case \$0 in */*) R=\${0%/*}/../root ;; *) R=\$(command -v "\$0"); R=\${R%/*}/../root ;; esac
L=
for d in $(echo "$libdirs" | tr ':' ' '); do L=\${L:+\$L:}\$R/\$d; done
: "\${OPENSSL_CONF:=\$R/usr/lib/ssl/openssl.cnf}"
: "\${OPENSSL_MODULES:=\$R/$modules}"
export OPENSSL_CONF OPENSSL_MODULES
EOF
    if [ -n "$FOREIGN" ]; then
        cat >>"$DEST/bin/$name.tmp" <<EOF
# A $ARCH tree: the loader runs under qemu-user; LD_PRELOAD is the guest's.
Q=\${QEMU_USER:-$QEMU_USER}
if [ -n "\${LD_PRELOAD:-}" ]; then
    P=\$LD_PRELOAD
    unset LD_PRELOAD
    exec \$Q -E LD_PRELOAD="\$P" "\$R/$loader" --library-path "\$L" $run
fi
exec \$Q "\$R/$loader" --library-path "\$L" $run
EOF
    else
        echo "exec \"${loader_path:-\$R/$loader}\" --library-path \"\$L\" $run" >>"$DEST/bin/$name.tmp"
    fi
    chmod 0755 "$DEST/bin/$name.tmp"
    mv "$DEST/bin/$name.tmp" "$DEST/bin/$name"
}
mkdir -p "$DEST/bin"
write_wrapper openssl usr/bin/openssl
write_wrapper run

# The unpacked openssl.cnf is a symlink to /etc/ssl/openssl.cnf: point it at
# the unpacked copy so the system's configuration is never read.
if [ -L "$ROOT/usr/lib/ssl/openssl.cnf" ] && [ -f "$ROOT/etc/ssl/openssl.cnf" ]; then
    ln -sfn ../../../etc/ssl/openssl.cnf "$ROOT/usr/lib/ssl/openssl.cnf"
fi

"$DEST/bin/openssl" version >/dev/null
pkgs=$(for deb in "$APT"/debs/*.deb; do dpkg-deb --show --showformat='${Package} ${Version}\n' "$deb"; done | paste -sd,)
echo "$("$DEST/bin/openssl" version) [Debian $SUITES: ${pkgs//,/, }]" >"$DEST/VERSION"
touch "$DEST/.done"
echo "$(cat "$DEST/VERSION") in $DEST"
