/* Helpers shared by the drivers that compare ML-KEM and ML-DSA through the
 * shim with stock OpenSSL (mlkem_stock_driver.c, mldsa_stock_driver.c,
 * mlkem_mldsa_keys_driver.c): the run's pseudo-random bytes, a hash to
 * compare outputs, one point's line, keys from seeds and from parts, raw
 * parameters, 12-bit coefficients. Header-only (each
 * driver is one translation unit); built against the 3.0 headers. */
#ifndef CRYPTOSHIM_PQ_DRIVER_H
#define CRYPTOSHIM_PQ_DRIVER_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "driver.h"

static uint64_t rng_state; /* the run seed, set by main */

/* xorshift64*: the same "random" bytes for the same run seed. */
static inline void rnd(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state >> 12;
        rng_state ^= rng_state << 25;
        rng_state ^= rng_state >> 27;
        p[i] = (unsigned char)((rng_state * 2685821657736338717ULL) >> 56);
    }
}

/* FNV-1a, chained from h (FNV0 to start): enough to compare outputs. */
#define FNV0 1469598103934665603ULL
static inline unsigned long long fnv(unsigned long long h, const void *v, size_t n)
{
    const unsigned char *p = v;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* Prints one point's line "ALG NAME rc=0|1 err=LIB:REASON|none
 * [out=HASH]" (the first error left on the queue; HASH the fnv of out, when
 * given) and clears the error queue. */
static inline void pq_point(const char *alg, const char *name, int ok, const unsigned char *out,
                            size_t outlen)
{
    unsigned long e = ERR_peek_error();
    printf("%s %s rc=%d err=", alg, name, ok ? 1 : 0);
    if (e)
        printf("%d:%d", ERR_GET_LIB(e), ERR_GET_REASON(e));
    else
        printf("none");
    if (out)
        printf(" out=%016llx", fnv(FNV0, out, outlen));
    printf("\n");
    ERR_clear_error();
}

/* A key of algorithm alg from keygen's "seed" parameter of seedlen bytes
 * (seed NULL: no parameter, fresh randomness); NULL on failure. */
static inline EVP_PKEY *pq_keygen(const char *alg, const unsigned char *seed, size_t seedlen)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string("seed", (void *)seed, seedlen), OSSL_PARAM_END};
    if (c && EVP_PKEY_keygen_init(c) == 1 && (!seed || EVP_PKEY_CTX_set_params(c, p) == 1))
        EVP_PKEY_keygen(c, &key);
    EVP_PKEY_CTX_free(c);
    return key;
}

/* EVP_PKEY_fromdata of alg with up to three octet parts (NULL: absent). */
static inline EVP_PKEY *pq_fromdata(const char *alg, int selection, const unsigned char *seed,
                                    size_t seedn, const unsigned char *priv, size_t privn,
                                    const unsigned char *pub, size_t pubn)
{
    OSSL_PARAM p[4];
    int n = 0;
    EVP_PKEY *key = NULL;
    if (seed)
        p[n++] = OSSL_PARAM_construct_octet_string("seed", (void *)seed, seedn);
    if (priv)
        p[n++] = OSSL_PARAM_construct_octet_string("priv", (void *)priv, privn);
    if (pub)
        p[n++] = OSSL_PARAM_construct_octet_string("pub", (void *)pub, pubn);
    p[n] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
    if (c && EVP_PKEY_fromdata_init(c) == 1)
        EVP_PKEY_fromdata(c, &key, selection, p);
    EVP_PKEY_CTX_free(c);
    return key;
}

/* The octet parameter name of key into buf: its length, 0 if absent. */
static inline size_t get_octets(EVP_PKEY *key, const char *name, unsigned char *buf, size_t cap)
{
    size_t len = 0;
    if (!key || EVP_PKEY_get_octet_string_param(key, name, buf, cap, &len) != 1)
        return 0;
    return len;
}

/* Coefficient i of the 12-bit polynomial vector encoded at p, and setting it. */
static inline unsigned get_coeff(const unsigned char *p, size_t i)
{
    const unsigned char *b = p + 3 * (i / 2);
    return i % 2 == 0 ? (unsigned)(b[0] | (b[1] & 0x0f) << 8) : (unsigned)(b[1] >> 4 | b[2] << 4);
}
static inline void set_coeff(unsigned char *p, size_t i, unsigned v)
{
    unsigned char *b = p + 3 * (i / 2);
    if (i % 2 == 0) {
        b[0] = v & 0xff;
        b[1] = (unsigned char)((b[1] & 0xf0) | (v >> 8));
    } else {
        b[1] = (unsigned char)((b[1] & 0x0f) | ((v & 0x0f) << 4));
        b[2] = (unsigned char)(v >> 4);
    }
}

#endif
