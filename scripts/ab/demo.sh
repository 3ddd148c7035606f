#!/usr/bin/env bash
# make demo: short A/B runs on built-in defaults, then where the reports are.
# TLS with an RSA-3072 certificate (system OpenSSL), TLS with ML-DSA-65 when
# build/openssl35 exists, SSH with an RSA-3072 host key and group16.
# Usage: BUILD=build scripts/ab/demo.sh OUTDIR   (about 3 minutes here)
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
out=${1:-$BUILD/demo}
cli=$BUILD/cryptoshim
mkdir -p "$out"
status=0
summary=()

# ab NAME ARGS...: one A/B run into $out/NAME; a verdict of "slower" (exit 1)
# is reported, an error (exit 2) fails the demo.
ab() {
    local name=$1 rc; shift
    echo "=== cryptoshim ab $*"
    timeout --kill-after=10 240 "$cli" ab "$@" --out "$out/$name"
    rc=$?
    case $rc in
        0) summary+=("$name: $(grep -m1 '^\*\*Verdict' "$out/$name/report.md")") ;;
        1) summary+=("$name: B slower (exit 1): $(grep -m1 '^\*\*Verdict' "$out/$name/report.md")") ;;
        *) summary+=("$name: FAILED (exit $rc)"); status=1 ;;
    esac
    echo
}

ab tls-rsa3072 tls --cert rsa3072 -n 200
if [ -x "$BUILD/openssl35/bin/openssl" ]; then
    ab tls-mldsa65 tls --cert mldsa65 -n 200 --openssl "$BUILD/openssl35/bin/openssl"
else
    summary+=("tls-mldsa65: skipped (no build/openssl35: run make openssl35)")
fi
if [ "$(id -u)" -eq 0 ]; then
    ab ssh-rsa3072-group16 ssh --hostkey 3072 --kex group16 -n 60
else
    summary+=("ssh: skipped (sshd with privilege separation needs root)")
fi

echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "reports, CSVs and plots (plot.png, plot.svg) under $out/"
exit $status
