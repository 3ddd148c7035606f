/* ML-KEM encapsulation and decapsulation (FIPS 203 ML-KEM.Encaps and
 * Decaps with implicit rejection) behind OpenSSL's KEM operation, with the
 * deterministic-encapsulation test parameter "ikme" and stock's size
 * queries, buffer checks and errors. */
#include <stdlib.h>
#include <string.h>

#include "mlkem_key.h"

/* One KEM operation: the key, which way, and a one-shot ikme. */
typedef struct kem_ctx {
    cs_prov *prov;
    cs_mlkem_key *key;
    int op; /* OP_ENCAPS or OP_DECAPS once initialised */
    int has_entropy;
    uint8_t entropy[CS_MLKEM_SYM_BYTES];
} kem_ctx;

#define OP_ENCAPS 1
#define OP_DECAPS 2

/* A new, uninitialised context. */
static void *kem_newctx(void *provctx)
{
    kem_ctx *ctx = calloc(1, sizeof(*ctx));
    if (ctx)
        ctx->prov = provctx;
    return ctx;
}

/* Frees a context, wiping a pending ikme. */
static void kem_freectx(void *vctx)
{
    kem_ctx *ctx = vctx;
    if (!ctx)
        return;
    cs_prov_cleanse(ctx->entropy, sizeof ctx->entropy);
    free(ctx);
}

/* Forgets a pending ikme. */
static void drop_entropy(kem_ctx *ctx)
{
    cs_prov_cleanse(ctx->entropy, sizeof ctx->entropy);
    ctx->has_entropy = 0;
}

/* ikme for the next encapsulation: exactly 32 bytes, else "invalid seed
 * length"; decapsulation is deterministic and drops one. */
static int kem_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    kem_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    size_t len = 0;
    if (!ctx)
        return 0;
    if (ctx->op == OP_DECAPS && ctx->has_entropy)
        drop_entropy(ctx);
    if (ctx->op == OP_ENCAPS && (p = cs_param_locate(params, CS_P_IKME))) {
        if (cs_param_get_octets(ctx->prov, p, ctx->entropy, sizeof ctx->entropy, &len) &&
            len == sizeof ctx->entropy) {
            ctx->has_entropy = 1;
            return 1;
        }
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_SEED_LENGTH, NULL);
        drop_entropy(ctx);
        return 0;
    }
    return 1;
}

static const OSSL_PARAM settable_ctx[] = {
    OSSL_PARAM_octet_string(CS_P_IKME, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters set_ctx_params takes. */
static const OSSL_PARAM *kem_settable_ctx_params(void *vctx, void *provctx)
{
    return settable_ctx;
}

/* Binds the context to key for op and applies params. */
static int kem_init(kem_ctx *ctx, int op, cs_mlkem_key *key, const OSSL_PARAM params[])
{
    ctx->key = key;
    ctx->op = op;
    return kem_set_ctx_params(ctx, params);
}

/* Encapsulation needs the public key ("missing key" otherwise). */
static int kem_encapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    cs_mlkem_key *key = vkey;
    kem_ctx *ctx = vctx;
    if (!key || !key->has_pub) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    return kem_init(ctx, OP_ENCAPS, key, params);
}

/* Decapsulation needs the private key ("missing key" otherwise). */
static int kem_decapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    cs_mlkem_key *key = vkey;
    kem_ctx *ctx = vctx;
    if (!key || !key->has_priv) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    return kem_init(ctx, OP_DECAPS, key, params);
}

/* Writes the ciphertext and shared secret (or, with ct NULL, only their
 * sizes); m is the ikme given for this call or fresh randomness. Buffer
 * errors as stock: a NULL secret buffer, a NULL length pointer, a buffer too
 * small. The ikme is used once either way. */
static int kem_encapsulate(void *vctx, unsigned char *ct, size_t *ctlen, unsigned char *ss,
                           size_t *sslen)
{
    kem_ctx *ctx = vctx;
    cs_mlkem_key *key = ctx->key;
    const cs_prov *prov = ctx->prov;
    uint8_t m[CS_MLKEM_SYM_BYTES];
    int ret = 0;
    if (!key || !key->has_pub) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        goto end;
    }
    size_t ctb = cs_mlkem_ct_bytes(key->hooks->ps);
    if (ct == NULL) {
        if (ctlen == NULL && sslen == NULL)
            return 0;
        if (ctlen)
            *ctlen = ctb;
        if (sslen)
            *sslen = CS_MLKEM_SYM_BYTES;
        return 1;
    }
    if (ss == NULL) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_NULL_OUTPUT_BUFFER, "NULL shared-secret buffer");
        goto end;
    }
    if (ctlen == NULL) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_NULL_LENGTH_POINTER,
                 "null ciphertext input/output length pointer");
        goto end;
    }
    if (*ctlen < ctb) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                 "ciphertext buffer too small");
        goto end;
    }
    *ctlen = ctb;
    if (sslen == NULL) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_NULL_LENGTH_POINTER,
                 "null shared secret input/output length pointer");
        goto end;
    }
    if (*sslen < CS_MLKEM_SYM_BYTES) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                 "shared-secret buffer too small");
        goto end;
    }
    *sslen = CS_MLKEM_SYM_BYTES;
    if (ctx->has_entropy)
        memcpy(m, ctx->entropy, sizeof m);
    else if (!cs_prov_random(prov, m, sizeof m))
        goto end;
    ret = cs_mlkem_key_encaps(key, ct, ss, m);
    cs_prov_cleanse(m, sizeof m);
end:
    if (ctx->has_entropy)
        drop_entropy(ctx);
    return ret;
}

/* Writes the shared secret for ct (or, with ss NULL, its size). A
 * ciphertext of the wrong length fails without an error and leaves random
 * bytes in ss, as stock; a wrong one of the right length gives the implicit
 * rejection secret (success). */
static int kem_decapsulate(void *vctx, unsigned char *ss, size_t *sslen, const unsigned char *ct,
                           size_t ctlen)
{
    kem_ctx *ctx = vctx;
    cs_mlkem_key *key = ctx->key;
    if (!key || !key->has_priv) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    if (ss == NULL) {
        if (sslen == NULL)
            return 0;
        *sslen = CS_MLKEM_SYM_BYTES;
        return 1;
    }
    if (sslen != NULL) {
        if (*sslen < CS_MLKEM_SYM_BYTES) {
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                     "shared-secret buffer too small");
            return 0;
        }
        *sslen = CS_MLKEM_SYM_BYTES;
    }
    if (ct == NULL || ctlen != cs_mlkem_ct_bytes(key->hooks->ps)) {
        (void)cs_prov_random(ctx->prov, ss, CS_MLKEM_SYM_BYTES);
        return 0;
    }
    return cs_mlkem_key_decaps(key, ss, ct);
}

const OSSL_DISPATCH cs_mlkem_kem[] = {
    {OSSL_FUNC_KEM_NEWCTX, (void (*)(void))kem_newctx},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, (void (*)(void))kem_encapsulate_init},
    {OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))kem_encapsulate},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, (void (*)(void))kem_decapsulate_init},
    {OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))kem_decapsulate},
    {OSSL_FUNC_KEM_FREECTX, (void (*)(void))kem_freectx},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))kem_set_ctx_params},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, (void (*)(void))kem_settable_ctx_params},
    {0, NULL},
};
