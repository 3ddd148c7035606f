/* The provider's ML-KEM tables (provider/mlkem_keymgmt.c,
 * provider/mlkem_kem.c) called through their OSSL_DISPATCH entries as the
 * OpenSSL core calls them, with no core (plain memory, no error queue):
 * for diff_mlkem_prepared and tests/fuzz/fuzz_mlkem_prov.c, which link
 * those provider objects. Header-only. */
#ifndef CRYPTOSHIM_TEST_MLKEM_PROV_CALLS_H
#define CRYPTOSHIM_TEST_MLKEM_PROV_CALLS_H

#include <openssl/core_dispatch.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernels/mlkem/mlkem.h"
#include "provider/mlkem_key.h"

/* The provider context the tables are handed (OpenSSL 3.5's core). */
static cs_prov prov = {.core_version = 305};

/* The function of a dispatch table with the given id. */
static void (*fn(const OSSL_DISPATCH *t, int id))(void)
{
    for (; t->function_id; t++)
        if (t->function_id == id)
            return t->function;
    abort();
}

/* The key management table of parameter set ps. */
static const OSSL_DISPATCH *keymgmt_of(int ps)
{
    return ps == 512 ? cs_mlkem512_keymgmt : ps == 768 ? cs_mlkem768_keymgmt : cs_mlkem1024_keymgmt;
}

/* A new key of ps imported (whole key pair selected) from the
 * parameters p; NULL if the import failed. */
static void *import_params(int ps, const OSSL_PARAM *p)
{
    const OSSL_DISPATCH *t = keymgmt_of(ps);
    void *key = ((void *(*)(void *))fn(t, OSSL_FUNC_KEYMGMT_NEW))(&prov);
    if (((int (*)(void *, int, const OSSL_PARAM *))fn(t, OSSL_FUNC_KEYMGMT_IMPORT))(
            key, OSSL_KEYMGMT_SELECT_KEYPAIR, p))
        return key;
    ((void (*)(void *))fn(t, OSSL_FUNC_KEYMGMT_FREE))(key);
    return NULL;
}

/* The keymgmt's free. */
static void key_free(int ps, void *key)
{
    ((void (*)(void *))fn(keymgmt_of(ps), OSSL_FUNC_KEYMGMT_FREE))(key);
}

/* Encapsulates to key with ikme m through the KEM table: 1 on success.
 * *ctlen: ct's room, then the ciphertext's length (NULL: room for the
 * largest). */
static int kem_encaps(void *key, const uint8_t m[32], uint8_t *ct, size_t *ctlen, uint8_t ss[32])
{
    void *c = ((void *(*)(void *))fn(cs_mlkem_kem, OSSL_FUNC_KEM_NEWCTX))(&prov);
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string(CS_P_IKME, (void *)m, 32), OSSL_PARAM_END};
    size_t room = CS_MLKEM_MAX_CT_BYTES, sslen = 32;
    int ok = ((int (*)(void *, void *, const OSSL_PARAM *))fn(
                 cs_mlkem_kem, OSSL_FUNC_KEM_ENCAPSULATE_INIT))(c, key, p) &&
             ((int (*)(void *, uint8_t *, size_t *, uint8_t *, size_t *))fn(
                 cs_mlkem_kem, OSSL_FUNC_KEM_ENCAPSULATE))(c, ct, ctlen ? ctlen : &room, ss, &sslen);
    ((void (*)(void *))fn(cs_mlkem_kem, OSSL_FUNC_KEM_FREECTX))(c);
    return ok;
}

/* Decapsulates ct (ctlen bytes) with key through the KEM table: 1 on
 * success. */
static int kem_decaps(void *key, const uint8_t *ct, size_t ctlen, uint8_t ss[32])
{
    void *c = ((void *(*)(void *))fn(cs_mlkem_kem, OSSL_FUNC_KEM_NEWCTX))(&prov);
    size_t sslen = 32;
    int ok = ((int (*)(void *, void *, const OSSL_PARAM *))fn(
                 cs_mlkem_kem, OSSL_FUNC_KEM_DECAPSULATE_INIT))(c, key, NULL) &&
             ((int (*)(void *, uint8_t *, size_t *, const uint8_t *, size_t))fn(
                 cs_mlkem_kem, OSSL_FUNC_KEM_DECAPSULATE))(c, ss, &sslen, ct, ctlen);
    ((void (*)(void *))fn(cs_mlkem_kem, OSSL_FUNC_KEM_FREECTX))(c);
    return ok;
}

#endif
