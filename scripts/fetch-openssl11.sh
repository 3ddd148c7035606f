#!/usr/bin/env bash
# `make openssl11`: Debian 11's OpenSSL 1.1.1 under DEST (default build/openssl11),
# to prove the shim serves OpenSSL 1.1.1 processes too.
exec "$(dirname "$0")/fetch-debian-openssl.sh" "${1:-build/openssl11}" "${OPENSSL11_SUITE:-bullseye}" \
    openssl libssl1.1
