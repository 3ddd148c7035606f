#!/usr/bin/env bash
# Runs apt-get with a private state, cache and source list under DIR, so
# nothing on the system changes. The source list is derived at run time from
# the machine's configured Debian sources (deb822 *.sources and one-line
# *.list files; entries without a Debian keyring are left out), written as
# both "deb" and "deb-src" lines for architecture ARCH. No host name is kept
# in the repository. APT_SUITE=SUITE (e.g. trixie) reads that release
# instead of the machine's: main-archive entries only, suite replaced.
# Usage: apt-private.sh DIR ARCH update
#        apt-private.sh DIR ARCH source PKG          (unpacks in the cwd)
#        apt-private.sh DIR ARCH download PKG...     (.debs into the cwd)
set -euo pipefail
DIR=$1 ARCH=$2; shift 2
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
mkdir -p "$DIR/state/lists/partial" "$DIR/cache/archives/partial" \
         "$DIR/etc/sources.list.d" "$DIR/etc/preferences.d" "$DIR/etc/apt.conf.d"
[ -f "$DIR/state/status" ] || : >"$DIR/state/status"

list=$DIR/etc/sources.list
: >"$list"
while read -r uri suite comps key; do
    case $key in
        -) [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || continue
           key=/usr/share/keyrings/debian-archive-keyring.gpg ;;
        *debian-archive-keyring*) ;;
        *) continue ;;   # third-party repository
    esac
    if [ -n "${APT_SUITE:-}" ]; then
        case $suite in *-*) continue ;; esac
        case ${uri%/} in */debian) ;; *) continue ;; esac
        suite=$APT_SUITE
    fi
    for t in deb deb-src; do
        echo "$t [arch=$ARCH signed-by=$key] $uri $suite ${comps//,/ }" >>"$list"
    done
done < <("$(dirname "$0")/../debian-sources.sh")
[ -s "$list" ] || { echo "apt-private: no Debian sources configured" >&2; exit 1; }

APT_OPTS=(-o "Dir::State=$DIR/state" -o "Dir::State::status=$DIR/state/status"
          -o "Dir::Cache=$DIR/cache" -o "Dir::Etc::SourceList=$list"
          -o "Dir::Etc::SourceParts=$DIR/etc/sources.list.d"
          -o "Dir::Etc::Preferences=$DIR/etc/preferences"
          -o "Dir::Etc::PreferencesParts=$DIR/etc/preferences.d"
          -o "Dir::Etc::Parts=$DIR/etc/apt.conf.d"
          -o "APT::Architecture=$ARCH" -o "APT::Architectures=$ARCH"
          -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1" -q)
cmd=$1; shift
case $cmd in
    update) exec apt-get "${APT_OPTS[@]}" update ;;
    source) exec apt-get "${APT_OPTS[@]}" --download-only=no source "$@" ;;
    download) exec apt-get "${APT_OPTS[@]}" download "$@" ;;
    *) echo "apt-private: unknown command $cmd" >&2; exit 2 ;;
esac
