#!/usr/bin/env bats
# The Debian package: `make deb` builds cryptoshim_VERSION_ARCH.deb with
# dpkg-buildpackage; lintian reports no error or warning; it installs with
# dpkg -i (the postinst offers calibration, runs nothing); the installed CLI
# finds the installed library, `info` and `selftest` run from /usr/bin; the
# installed library preloaded into `openssl speed` counts its calls; dpkg -r
# and --purge leave nothing. Needs root (dpkg -i). About 2 minutes, mostly
# the package build.

load "helpers/common"

MULTIARCH=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
LIBDIR=/usr/lib/$MULTIARCH/cryptoshim
INSTALLED_LIB=$LIBDIR/libcryptoshim.so

setup_file() {
    cs_env
    [ "$(id -u)" -eq 0 ] || return 0
    installed_before && return 0
    # A policy a development build's `calibrate --install` left is put back
    # after the purge (which removes /etc/cryptoshim).
    ls -A /etc/cryptoshim 2>/dev/null >"$BATS_FILE_TMPDIR/etc-before" || true
    if [ -d /etc/cryptoshim ]; then cp -a /etc/cryptoshim "$BATS_FILE_TMPDIR/etc-cryptoshim"; fi
    # The package build, once for the file: its log is the first test's.
    rm -f "$CS_BUILD"/cryptoshim_*.deb
    make -C "$CS_ROOT" --no-print-directory BUILD="$CS_BUILD" deb \
        >"$BATS_FILE_TMPDIR/make-deb.log" 2>&1 || true
}

teardown_file() {
    # Never leave the package installed, whatever failed.
    if [ "$(id -u)" -eq 0 ] && [ ! -e "$BATS_FILE_TMPDIR/installed-before" ] &&
       dpkg-query -W -f='${db:Status-Abbrev}' cryptoshim 2>/dev/null | grep -q '^[ir][ic]'; then
        dpkg_wait --purge cryptoshim >/dev/null 2>&1 || true
    fi
    if [ -d "$BATS_FILE_TMPDIR/etc-cryptoshim" ] && [ ! -e /etc/cryptoshim ]; then
        cp -a "$BATS_FILE_TMPDIR/etc-cryptoshim" /etc/cryptoshim
    fi
}

setup() {
    cs_env
    [ "$(id -u)" -eq 0 ] || skip "installing a package (dpkg -i) needs root"
    [ ! -e "$BATS_FILE_TMPDIR/installed-before" ] ||
        skip "a cryptoshim package was installed before this test: not replacing it"
    DEB=$(ls "$CS_BUILD"/cryptoshim_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
}

# installed_before: true (and remembered) when a cryptoshim package is
# already installed on this machine.
installed_before() {
    if dpkg-query -W -f='${db:Status-Abbrev}' cryptoshim 2>/dev/null | grep -q '^ii'; then
        touch "$BATS_FILE_TMPDIR/installed-before"
        return 0
    fi
    return 1
}

# dpkg_wait ARGS...: dpkg, retried for up to 5 minutes while another
# package operation on the machine holds the dpkg lock.
dpkg_wait() {
    local i out rc
    for ((i = 0; i < 150; i++)); do
        rc=0
        out=$(DEBIAN_FRONTEND=noninteractive dpkg "$@" 2>&1) || rc=$?
        if [ "$rc" -ne 0 ] && echo "$out" | grep -q 'lock'; then
            sleep 2
            continue
        fi
        echo "$out"
        return "$rc"
    done
    echo "$out"
    return 1
}

@test "make deb builds cryptoshim_VERSION_ARCH.deb with dpkg-buildpackage" {
    cat "$BATS_FILE_TMPDIR/make-deb.log"
    [ -n "$DEB" ] && [ -s "$DEB" ]
    grep -q 'dpkg-buildpackage: info: binary-only upload' "$CS_BUILD/deb/build.log"
    run dpkg-deb -c "$DEB"
    [ "$status" -eq 0 ]
    for f in "./usr/lib/$MULTIARCH/cryptoshim/libcryptoshim.so" \
             "./usr/lib/$MULTIARCH/cryptoshim/cryptoshim.so -> libcryptoshim.so" \
             ./usr/bin/cryptoshim ./usr/libexec/cryptoshim/ab-tls-client \
             ./usr/share/cryptoshim/scripts/ab/ab.py \
             ./usr/share/man/man1/cryptoshim.1.gz ./usr/share/man/man7/cryptoshim.7.gz \
             ./usr/share/doc/cryptoshim/README.md ./usr/share/doc/cryptoshim/deploy.md \
             ./usr/share/doc/cryptoshim/examples/ssh.service.d/cryptoshim.conf \
             ./usr/share/doc/cryptoshim/examples/nginx.service.d/cryptoshim.conf; do
        echo "$output" | grep -qF " $f" || { echo "missing: $f"; return 1; }
    done
    # Nothing enabled: no file under /etc, /lib/systemd or /usr/lib/systemd.
    ! echo "$output" | grep -Eq ' \./(etc|lib/systemd|usr/lib/systemd)/.'
    run dpkg-deb -f "$DEB" Package Version Architecture
    echo "$output"
    [ "${lines[0]}" = "Package: cryptoshim" ]
}

@test "lintian reports no error and no warning" {
    [ -n "$DEB" ]
    run lintian "$DEB"
    echo "$output"
    ! echo "$output" | grep -E '^(E|W):'
}

@test "dpkg -i installs it; the postinst offers calibration and does not run it" {
    [ -n "$DEB" ]
    run dpkg_wait -i "$DEB"
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -q 'cryptoshim calibrate --install'
    # Nothing calibrated or written under /etc/cryptoshim by the install.
    [ "$(ls -A /etc/cryptoshim 2>/dev/null)" = "$(cat "$BATS_FILE_TMPDIR/etc-before")" ]
    [ -f "$INSTALLED_LIB" ] && [ -x /usr/bin/cryptoshim ]
    # Not in the linker's search path: preloaded by path only.
    ! ldconfig -p | grep -q libcryptoshim
}

@test "the installed cryptoshim info finds the installed library" {
    run /usr/bin/cryptoshim info
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -Eq "^library +$INSTALLED_LIB\$"
}

@test "the installed cryptoshim selftest passes" {
    run /usr/bin/cryptoshim selftest
    echo "$output" | tail -5
    [ "$status" -eq 0 ]
    echo "$output" | grep -q 'selftest passed'
}

@test "the installed library preloaded into openssl speed rsa2048: its calls are counted" {
    local stats=$BATS_TEST_TMPDIR/speed.stats
    run env LD_PRELOAD="$INSTALLED_LIB" CRYPTOSHIM_STATS="$stats" \
        openssl speed -seconds 1 rsa2048
    echo "$output" | tail -3
    [ "$status" -eq 0 ]
    run /usr/bin/cryptoshim stats "$stats"
    echo "$output"
    [ "$status" -eq 0 ]
    local calls
    calls=$(echo "$output" | awk -F'\t' 'NR > 1 && $4 ~ /^[0-9]+$/ && $3 >= 1024 { s += $4 } END { print s + 0 }')
    [ "$calls" -gt 0 ]
    # cryptoshim run from /usr/bin preloads the same file.
    run /usr/bin/cryptoshim run -- /bin/sh -c 'echo "$LD_PRELOAD"'
    echo "$output"
    echo "$output" | grep -qF "$INSTALLED_LIB"
}

@test "the installed cryptoshim ab runs its installed harness and client" {
    run timeout 120 /usr/bin/cryptoshim ab tls --cert rsa2048 -n 4 --block 2 --no-capture \
        --out "$BATS_TEST_TMPDIR/ab"
    echo "$output"
    [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
    grep -q "LD_PRELOAD=$INSTALLED_LIB" "$BATS_TEST_TMPDIR/ab/report.md"
}

@test "the man pages are installed and render without warnings" {
    for page in /usr/share/man/man1/cryptoshim.1.gz /usr/share/man/man7/cryptoshim.7.gz; do
        [ -s "$page" ]
        run sh -c "zcat '$page' | groff -man -Tutf8 -ww -z 2>&1"
        echo "$output"
        [ -z "$output" ]
    done
}

@test "dpkg -r removes every file; dpkg --purge leaves nothing" {
    dpkg-query -W cryptoshim
    local files
    files=$(dpkg-query -L cryptoshim | while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done)
    [ -n "$files" ]
    run dpkg_wait -r cryptoshim
    echo "$output"
    [ "$status" -eq 0 ]
    local f
    for f in $files; do
        [ ! -e "$f" ] && [ ! -L "$f" ] || { echo "left after dpkg -r: $f"; return 1; }
    done
    run dpkg_wait --purge cryptoshim
    echo "$output"
    [ "$status" -eq 0 ]
    ! dpkg-query -W -f='${db:Status-Abbrev}' cryptoshim 2>/dev/null | grep -q '^[a-z]'
    [ ! -e "$LIBDIR" ] && [ ! -e /usr/share/cryptoshim ] && [ ! -e /usr/libexec/cryptoshim ] &&
        [ ! -e /usr/share/doc/cryptoshim ] && [ ! -e /etc/cryptoshim ]
}
