#!/usr/bin/env bash
# `make openssl36`: Debian sid's OpenSSL 3.6 under DEST (default build/openssl36).
# Its libcrypto.so.3 is linked with DT_SYMBOLIC: libcrypto's own calls never
# reach a preloaded definition (the method route of issue 12 serves it).
exec "$(dirname "$0")/fetch-debian-openssl.sh" "${1:-build/openssl36}" "${OPENSSL36_SUITE:-sid}" \
    openssl libssl3t64 libc6 zlib1g libzstd1
