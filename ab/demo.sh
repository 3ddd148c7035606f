#!/usr/bin/env bash
# make demo: short A/B runs on built-in defaults, then where the reports are.
# TLS with an RSA-3072 certificate (system OpenSSL), TLS with ML-DSA-65
# and with RSA-2048 over the X25519MLKEM768 key exchange (OpenSSL 3.5 under
# build/openssl35, fetched by `make deps`), TLS with an RSA-2048 certificate
# on the newest OpenSSL fetched (4.0, 3.6 or 3.5), TLS with an ECDSA P-256
# certificate over X25519MLKEM768 on the newest 3.5+ build the client can
# use (3.6 or 3.5, taken by the harness), nginx on the system's OpenSSL 3.0
# with ECDSA P-256 and X25519, SSH with an RSA-3072 host key and group16
# and with an Ed25519 host key on sid's OpenSSH 10 (build/openssh10) with
# its default key exchange (root only: sshd's privilege separation),
# and one run under load: nginx on the system OpenSSL with an RSA-2048
# certificate, closed loop at 1, 4 and 16 handshakes in flight, then open
# loop at five rates up to 1.25x A's capacity (about 70 s; docs/ab.md
# "Under load"). Not as root, the TLS runs measure client-side latency only
# (no tcpdump).
# Usage: BUILD=build ab/demo.sh OUTDIR   (about 4 minutes at load 7 here)
#
# Ctrl-C, SIGTERM or SIGHUP: the running `cryptoshim ab` gets the signal and
# stops every server it started before the demo exits.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
out=${1:-$BUILD/demo}
cli=$BUILD/cryptoshim
status=0
summary=()
t0=$SECONDS

if [ ! -x "$cli" ]; then
    echo "demo: $cli is not built (make demo builds it)." >&2
    exit 2
fi
mkdir -p "$out"

capture=()
if [ "$(id -u)" -ne 0 ]; then
    capture=(--no-capture)
    echo "demo: not root, so no tcpdump capture: the TLS verdicts use client-side latency."
fi

# The harness runs in the background so that a signal to this script is
# handled at once (bash runs traps only between foreground commands) and
# passed on: timeout relays it to the harness, which stops its servers.
child=
on_signal() {
    local sig=$1
    trap '' INT TERM HUP
    echo "demo: stopped by SIG$sig; stopping the running A/B run" >&2
    if [ -n "$child" ]; then
        kill -"$sig" "$child" 2>/dev/null
        wait "$child" 2>/dev/null
    fi
    case $sig in INT) exit 130 ;; HUP) exit 129 ;; *) exit 143 ;; esac
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

# ab NAME ARGS...: one A/B run into $out/NAME; a verdict of "slower" (exit 1)
# is reported, an error (exit 2) fails the demo.
ab() {
    local name=$1 rc; shift
    echo "=== cryptoshim ab $*"
    # --foreground: the harness stays in this process group, so a terminal's
    # Ctrl-C reaches it directly too.
    timeout --foreground --kill-after=10 240 "$cli" ab "$@" --out "$out/$name" </dev/null &
    child=$!
    wait "$child"
    rc=$?
    child=
    case $rc in
        0) summary+=("$name: $(grep -m1 '^\*\*Verdict' "$out/$name/report.md")") ;;
        1) summary+=("$name: B slower (exit 1): $(grep -m1 '^\*\*Verdict' "$out/$name/report.md")") ;;
        124) summary+=("$name: FAILED (no result within 240 s)"); status=1 ;;
        *) summary+=("$name: FAILED (exit $rc; the line above says why)"); status=1 ;;
    esac
    echo
}

ab tls-rsa3072 tls --cert rsa3072 -n 200 "${capture[@]}"
if [ -x "$BUILD/openssl35/bin/openssl" ]; then
    # ML-KEM groups on 3.5: ab-tls-client, a libssl.so.3 program, offers none on 4.0
    for cert in mldsa65 rsa2048; do
        ab tls-$cert-x25519mlkem768 tls --cert $cert --groups X25519MLKEM768 -n 200 \
            --openssl "$BUILD/openssl35/bin/openssl" "${capture[@]}"
    done
else
    summary+=("tls-mldsa65/rsa2048-x25519mlkem768: FAILED ($BUILD/openssl35 is missing: make deps fetches OpenSSL 3.5)")
    status=1
fi
# The same RSA TLS A/B on the newest OpenSSL `make deps` unpacked (3.5 and
# later have their own paired IFMA code: the shim must beat that one too).
newest=
for v in 40 36 35; do
    [ -x "$BUILD/openssl$v/bin/openssl" ] && { newest=$v; break; }
done
if [ -n "$newest" ]; then
    ab "tls-rsa2048-openssl$newest" tls --cert rsa2048 -n 200 \
        --openssl "$BUILD/openssl$newest/bin/openssl" "${capture[@]}"
else
    summary+=("tls-rsa2048 on OpenSSL 3.5+: skipped (no build/openssl35, 36 or 40: make deps)")
fi
# The handshakes people run now (issue 36): ECDSA P-256 with the hybrid
# group on 3.5+, with X25519 on Debian 12's own nginx and OpenSSL 3.0.
if [ -x "$BUILD/openssl36/bin/openssl" ] || [ -x "$BUILD/openssl35/bin/openssl" ]; then
    ab tls-ecdsap256-x25519mlkem768 tls --cert ecdsa-p256 --groups X25519MLKEM768 -n 100 \
        "${capture[@]}"
else
    summary+=("tls-ecdsap256-x25519mlkem768: skipped (no build/openssl36 or openssl35: make deps)")
fi
ab nginx-ecdsap256-x25519 nginx --cert ecdsa-p256 --groups x25519 -n 100 "${capture[@]}"
# Under load: capacity, server CPU per handshake and tail latency.
ab nginx-rsa2048-load nginx --cert rsa2048 --concurrency 1,4,16 --rate auto --rounds 3 \
    --block-seconds 1
if [ "$(id -u)" -eq 0 ]; then
    ab ssh-rsa3072-group16 ssh --hostkey 3072 --kex group16 -n 60
    if [ -x "$BUILD/openssh10/bin/run" ]; then
        ab ssh-ed25519-openssh10 ssh --hostkey ed25519 -n 20 --block 5
    else
        summary+=("ssh-ed25519-openssh10: skipped ($BUILD/openssh10 missing: $(cat "$BUILD/openssh10/.missing" 2>/dev/null || echo make openssh10))")
    fi
else
    summary+=("ssh-rsa3072-group16: skipped (sshd with privilege separation needs root: run make demo as root)")
fi

echo "=== summary ($((SECONDS - t0)) s)"
printf '%s\n' "${summary[@]}"
echo "reports, CSVs and plots (plot.png, plot.svg; under load also load.png, load.svg) under $out/"
exit $status
