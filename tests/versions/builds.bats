#!/usr/bin/env bats
# What the newer Debian builds are (issue 12's reason for the method route),
# checked on the unpacked trees so a change in the archive shows up here:
# sid's 3.6 libcrypto.so.3 is linked with DT_SYMBOLIC and has no relocation for
# any BN_mod_exp* (its own calls never reach a preloaded definition); 4.0's
# libcrypto.so.4 defines every symbol at version OPENSSL_4.0.0. And the shim,
# built on Debian 12, loads into each version's processes, whose C library
# (sid's for 3.6 and 4.0) is newer. A few seconds.

bats_require_minimum_version 1.5.0
load "../bats/helpers/common"
load "versions"

setup() {
    cs_env
    cs_require
    need_cmd readelf objdump
}

@test "3.6: libcrypto.so.3 is DT_SYMBOLIC, no relocation for BN_mod_exp*" {
    version_use 36
    local lib=$V_TREE/root/usr/lib/x86_64-linux-gnu/libcrypto.so.3
    readelf -d "$lib" | grep -E 'SYMBOLIC|FLAGS'
    readelf -d "$lib" | grep -q '(SYMBOLIC)'
    ! objdump -R "$lib" | grep -E ' BN_mod_exp'
}

@test "4.0: libcrypto.so.4 defines every symbol at OPENSSL_4.0.0" {
    version_use 40
    local lib=$V_TREE/root/usr/lib/x86_64-linux-gnu/libcrypto.so.4 others
    readelf -V "$lib" | sed -n '/Version definition/,/^$/p'
    objdump -T "$lib" | grep -E ' (BN_mod_exp_mont|RSA_set_default_method|EVP_PKEY_CTX_new_from_name)$'
    objdump -T "$lib" | grep -q 'OPENSSL_4.0.0 *BN_mod_exp_mont$'
    # Defined (not *UND*) dynamic symbols at any other version node.
    others=$(objdump -T "$lib" | awk '$0 ~ /\.text|\.data|\.bss|\.rodata/ && $0 !~ /OPENSSL_4\.0\.0/' | wc -l)
    [ "$others" -eq 0 ]
}

# loads VER: `openssl version` with the shim preloaded: no loader complaint.
loads() {
    version_use "$1"
    run --separate-stderr shimmed -- "$V_OSSL" version
    echo "$output"
    echo "$stderr"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "$output" == OpenSSL* ]]
}

@test "1.1.1: the shim preloads cleanly" { loads 11; }
@test "3.5: the shim preloads cleanly (trixie's C library)" { loads 35; }
@test "3.6: the shim preloads cleanly (sid's C library)" { loads 36; }
@test "4.0: the shim preloads cleanly (sid's C library)" { loads 40; }
