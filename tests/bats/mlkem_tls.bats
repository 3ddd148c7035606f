#!/usr/bin/env bats
# TLS 1.3 key exchange on ML-KEM: handshakes of each pure and hybrid group
# (MLKEM512/768/1024, X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024)
# between s_server and s_client of OpenSSL 3.5, 3.6 and 4.0 (the trees under
# build/), the shim in both (each side's ML-KEM calls counted: the server
# encapsulates, the client generates and decapsulates) or in one side only
# against stock on the other (the same bytes on the wire). The shimmed sides
# list every ML-KEM implementation in CRYPTOSHIM_KERNELS (MLKEM_KERNELS): by
# default the provider leaves ML-KEM to libcrypto where no implementation of
# ours is measured faster. Loopback only; every process bounded by timeout.
# Needs `ss` (iproute2).

load mldsa_helpers

MLKEM_KERNELS=${MLKEM_KERNELS:-avx512,avx2,portable}
GROUPS_PS=(MLKEM512:512 MLKEM768:768 MLKEM1024:1024 X25519MLKEM768:768 SecP256r1MLKEM768:768
    SecP384r1MLKEM1024:1024)

setup_file() {
    [ -x "$CS_BUILD/cryptoshim" ] || return 0
    mldsa_require
    cd "$BATS_FILE_TMPDIR"
    ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key \
        -out leaf.pem -subj /CN=localhost -days 2 2>/dev/null
}

setup() {
    mldsa_require
    need_cmd ss
    cd "$BATS_TEST_TMPDIR"
}

# handshake OPENSSL GROUP SERVER_SHIM CLIENT_SHIM: one TLS 1.3 handshake on
# loopback offering only GROUP; the client must report it negotiated.
handshake() {
    tls_group_handshake 20 "$MLKEM_KERNELS" "$1" "$2" "$3" "$4" "$BATS_FILE_TMPDIR/leaf.pem" \
        "$BATS_FILE_TMPDIR/leaf.key" "(Negotiated TLS1.3 group|Server Temp Key): $2"
}

# each_group VER SERVER_SHIM CLIENT_SHIM: a handshake per group on OpenSSL
# VER, and the shimmed sides' ML-KEM calls on our kernels.
each_group() {
    local ver=$1 srv=$2 cli=$3 bin entry group ps
    bin=$(openssl_of "$ver") || {
        [ "$ver" = 35 ] && { echo "missing OpenSSL 3.5 tree" >&2; return 1; }
        ossl_absent "$ver"
        return 0
    }
    for entry in "${GROUPS_PS[@]}"; do
        group=${entry%%:*} ps=${entry##*:}
        rm -f srv.st cli.st
        handshake "$bin" "$group" "$srv" "$cli"
        if [ "$srv" = yes ] && [ "$(calls srv.st mlkem_encaps "$ps")" -lt 1 ]; then
            echo "OpenSSL $ver, $group: no ML-KEM-$ps encapsulation on our kernels in the server" >&2
            return 1
        fi
        if [ "$cli" = yes ]; then
            if [ "$(calls cli.st mlkem_keygen "$ps")" -lt 1 ] ||
                [ "$(calls cli.st mlkem_decaps "$ps")" -lt 1 ]; then
                echo "OpenSSL $ver, $group: client keygen/decaps not on our kernels" >&2
                "$CS_BUILD/cryptoshim" stats cli.st >&2
                return 1
            fi
        fi
    done
}

@test "OpenSSL 3.5: every ML-KEM group, shim in server and client, calls counted" { each_group 35 yes yes; }
@test "OpenSSL 3.5: every ML-KEM group, shimmed server, stock client" { each_group 35 yes no; }
@test "OpenSSL 3.5: every ML-KEM group, stock server, shimmed client" { each_group 35 no yes; }
@test "OpenSSL 3.6: every ML-KEM group, shim in server and client, calls counted" { each_group 36 yes yes; }
@test "OpenSSL 3.6: every ML-KEM group, shimmed server against stock client and back" {
    each_group 36 yes no
    each_group 36 no yes
}
@test "OpenSSL 4.0: every ML-KEM group, shim in server and client, calls counted" { each_group 40 yes yes; }
@test "OpenSSL 4.0: every ML-KEM group, shimmed server against stock client and back" {
    each_group 40 yes no
    each_group 40 no yes
}
