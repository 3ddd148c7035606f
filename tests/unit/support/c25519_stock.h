/* libcrypto's X25519 and Ed25519 on raw keys (EVP), the stock side of the
 * c25519 differential tests (diff_c25519_*) and fuzz targets
 * (tests/fuzz/fuzz_x25519.c, fuzz_ed25519.c). Header-only; links
 * -lcrypto. */
#ifndef CRYPTOSHIM_TEST_C25519_STOCK_H
#define CRYPTOSHIM_TEST_C25519_STOCK_H

#include <openssl/evp.h>
#include <stdint.h>

/* libcrypto's X25519(k, u): 1 and out, or 0 where it refuses. */
static inline int stock_x25519(uint8_t out[32], const uint8_t k[32], const uint8_t u[32])
{
    EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
    EVP_PKEY *pp = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u, 32);
    EVP_PKEY_CTX *c = pk ? EVP_PKEY_CTX_new(pk, NULL) : NULL;
    size_t len = 32;
    int ok = c && pp && EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_derive_set_peer(c, pp) > 0 &&
             EVP_PKEY_derive(c, out, &len) > 0 && len == 32;
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(pp);
    return ok;
}

/* pk = the public key of private key sk for type (EVP_PKEY_X25519 or
 * EVP_PKEY_ED25519); 1, or 0 where libcrypto fails. */
static inline int stock_pubkey(int type, uint8_t pk[32], const uint8_t sk[32])
{
    size_t len = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(type, NULL, sk, 32);
    int ok = k && EVP_PKEY_get_raw_public_key(k, pk, &len) == 1 && len == 32;
    EVP_PKEY_free(k);
    return ok;
}

/* sig = plain Ed25519's signature of msg (n bytes) by sk; 1, or 0 where
 * libcrypto fails. */
static inline int stock_ed25519_sign(uint8_t sig[64], const uint8_t sk[32], const uint8_t *msg,
                                     size_t n)
{
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, sk, 32);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    size_t len = 64;
    int ok = k && c && EVP_DigestSignInit(c, NULL, NULL, NULL, k) == 1 &&
             EVP_DigestSign(c, sig, &len, msg, n) == 1 && len == 64;
    EVP_MD_CTX_free(c);
    EVP_PKEY_free(k);
    return ok;
}

/* libcrypto's plain Ed25519 verdict on (sig, msg, pk): 1 valid, 0 refused
 * (a key import refused counts as refused: the kernel is then never
 * asked, the provider refuses the key the same way). */
static inline int stock_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t n,
                                       const uint8_t pk[32])
{
    EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, 32);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = k && c && EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) == 1 &&
             EVP_DigestVerify(c, sig, 64, msg, n) == 1;
    EVP_MD_CTX_free(c);
    EVP_PKEY_free(k);
    return ok;
}

#endif
