#!/usr/bin/env bash
# `make openssl35`: Debian 13's OpenSSL 3.5 under DEST (default build/openssl35).
exec "$(dirname "$0")/fetch-debian-openssl.sh" "${1:-build/openssl35}" "${OPENSSL35_SUITE:-trixie}" \
    openssl libssl3t64 libc6 zlib1g libzstd1
