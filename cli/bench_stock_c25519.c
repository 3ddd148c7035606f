/* Stock libcrypto's X25519/Ed25519 set-ups and calls for the curve benches
 * (bench_stock_c25519.h). */
#include "bench_stock_c25519.h"

EVP_PKEY_CTX *cli_stock_x25519_derive_ctx(const uint8_t priv[32], const uint8_t peer[32])
{
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
    EVP_PKEY *p = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, 32);
    EVP_PKEY_CTX *c = k && p ? EVP_PKEY_CTX_new(k, NULL) : NULL;
    if (c && (EVP_PKEY_derive_init(c) <= 0 || EVP_PKEY_derive_set_peer(c, p) <= 0)) {
        EVP_PKEY_CTX_free(c);
        c = NULL;
    }
    EVP_PKEY_free(k);
    EVP_PKEY_free(p);
    return c;
}

EVP_MD_CTX *cli_stock_ed25519_md_ctx(int sign, const uint8_t key[32])
{
    EVP_PKEY *k = sign ? EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, key, 32)
                       : EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, key, 32);
    EVP_MD_CTX *c = k ? EVP_MD_CTX_new() : NULL;
    if (c && (sign ? EVP_DigestSignInit(c, NULL, NULL, NULL, k)
                   : EVP_DigestVerifyInit(c, NULL, NULL, NULL, k)) != 1) {
        EVP_MD_CTX_free(c);
        c = NULL;
    }
    EVP_PKEY_free(k);
    return c;
}

int cli_stock_public(int type, uint8_t out[32], const uint8_t key[32])
{
    size_t len = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(type, NULL, key, 32);
    int ok = k && EVP_PKEY_get_raw_public_key(k, out, &len) == 1;
    EVP_PKEY_free(k);
    return ok;
}
