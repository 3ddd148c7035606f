#!/usr/bin/env bash
# `make openssl40`: Debian experimental's OpenSSL 4.0 (libssl4: libcrypto.so.4,
# every symbol at version OPENSSL_4.0.0, DT_SYMBOLIC) under DEST (default
# build/openssl40). Experimental carries only openssl and libssl4; the C
# library (2.38 or later needed) and compression libraries come from sid.
suite=${OPENSSL40_SUITE:-experimental}
base=${OPENSSL40_BASE_SUITE:-sid}
exec "$(dirname "$0")/fetch-debian-openssl.sh" "${1:-build/openssl40}" "$suite,$base" \
    "openssl/$suite" "libssl4/$suite" libc6 zlib1g libzstd1
