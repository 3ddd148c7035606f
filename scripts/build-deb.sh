#!/usr/bin/env bash
# `make deb`: builds BUILD/cryptoshim_VERSION_ARCH.deb with dpkg-buildpackage
# (debhelper, debian/) from a copy of the tree in BUILD/deb/ (the tracked and
# new files, no build output), since dpkg-buildpackage writes its results
# beside the source directory. Prints the path of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}

for tool in dpkg-buildpackage:dpkg-dev dh:debhelper dpkg-parsechangelog:dpkg-dev; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || {
        echo "make deb: ${tool%%:*} is not installed (Debian package ${tool#*:}; make deps installs it)." >&2
        exit 1
    }
done
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
deb=cryptoshim_${version}_${arch}.deb
work=$BUILD/deb
src=$work/cryptoshim-$version
rm -rf "$work" "$BUILD/$deb"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
        grep -zv '^build/' | xargs -0 -r cp --parents -P -t "$src" 2>/dev/null || true
    # Deleted-but-tracked files are skipped by cp; anything else missing is fatal below.
else
    tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$src"
fi
[ -f "$src/debian/rules" ] || { echo "make deb: copying the tree to $src failed." >&2; exit 1; }

echo "make deb: dpkg-buildpackage in $src (log: $work/build.log)"
# The package builds in its own tree: nothing of a calling make (BUILD,
# MAKEFLAGS, a test run's variables) may leak into it.
if ! (cd "$src" && env -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u VECTORS -u CS_BUILD \
          -u CS_ROOT -u CFLAGS -u EXTRA_CFLAGS -u CC dpkg-buildpackage -b -us -uc -j"$(nproc)") \
        >"$work/build.log" 2>&1; then
    tail -30 "$work/build.log" >&2
    echo "make deb: dpkg-buildpackage failed (see above and $work/build.log)." >&2
    exit 1
fi
mv "$work/$deb" "$BUILD/$deb"
echo "$BUILD/$deb"
