#!/usr/bin/env bash
# Usage: scripts/deps.sh [PACKAGE-LIST]   (`make deps`; default mk/debian-packages.txt)
# Installs the Debian packages of the list that are missing. As root: one
# apt-get install (an apt-get update first only when the package lists are
# absent or stale, or the install failed on them), non-interactive, without
# recommends, and with no service started (a policy-rc.d answering 101 for
# the duration, removed on every exit path). Not as root: prints the one
# apt-get line that installs what is missing and exits 1. Every failure ends
# in one sentence naming what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-mk/debian-packages.txt}

die() {
    echo "make deps: $*" >&2
    exit 1
}

[ -r "$list" ] || die "the package list $list is missing."
command -v dpkg-query >/dev/null 2>&1 ||
    die "dpkg-query is not available: this set-up needs Debian 12 (or a Debian derivative) with dpkg and apt."

mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    {
        echo "make deps: ${#missing[@]} Debian package(s) needed by the build and tests are missing: ${missing[*]}."
        echo "Install them as root, then run make again:"
        echo "    sudo $line"
    } >&2
    exit 1
fi
command -v apt-get >/dev/null 2>&1 ||
    die "apt-get is not available, so the missing packages cannot be installed: ${missing[*]}."

echo "make deps: installing ${missing[*]}"
# No daemon the install brings (sshd, nginx) may start as a service. An
# existing policy-rc.d (someone else's) is left as it is.
rcd=/usr/sbin/policy-rc.d
own_rcd=
cleanup() {
    if [ -n "$own_rcd" ]; then rm -f "$rcd"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ ! -e "$rcd" ]; then
    own_rcd=1
    printf '#!/bin/sh\n# written by cryptoshim make deps for the duration of an install\nexit 101\n' >"$rcd"
    chmod 0755 "$rcd"
fi

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-q -y --no-install-recommends -o DPkg::Lock::Timeout=600
          -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
log=$(mktemp)
trap 'cleanup; rm -f "$log"' EXIT

# apt_update: refreshes the package lists (one try; its errors shown).
apt_update() {
    echo "make deps: apt-get update"
    apt-get -q -o DPkg::Lock::Timeout=600 update >"$log" 2>&1 || {
        cat "$log" >&2
        die "apt-get update failed (see above): the Debian archive is not reachable, so ${missing[*]} cannot be installed."
    }
}

# Lists absent (a new image) or without a candidate for a missing package,
# or older than a day: update first; otherwise try the install as is.
updated=
need_update=
for p in "${missing[@]}"; do
    if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then need_update=1; break; fi
done
if [ -z "$need_update" ] &&
   [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
    need_update=1
fi
if [ -n "$need_update" ]; then apt_update; updated=1; fi

if ! apt-get "${apt_opts[@]}" install "${missing[@]}" >"$log" 2>&1; then
    if [ -z "$updated" ]; then
        apt_update
        apt-get "${apt_opts[@]}" install "${missing[@]}" >"$log" 2>&1 || {
            tail -20 "$log" >&2
            die "apt-get install failed (see above) for: ${missing[*]}."
        }
    else
        tail -20 "$log" >&2
        die "apt-get install failed (see above) for: ${missing[*]}."
    fi
fi
still=()
for p in "${missing[@]}"; do
    dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || still+=("$p")
done
[ ${#still[@]} -eq 0 ] || die "these packages are still not installed after apt-get install: ${still[*]}."
echo "make deps: installed ${missing[*]}"
