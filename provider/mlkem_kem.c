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
    return cs_opctx_new(provctx, sizeof(kem_ctx));
}

/* Frees a context, wiping a pending ikme (the key is the caller's). */
static void kem_freectx(void *vctx)
{
    cs_opctx_free(vctx, sizeof(kem_ctx));
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

/* The parameters set_ctx_params takes. */
CS_CTX_PARAMS_FN(kem_settable_ctx_params, OSSL_PARAM_octet_string(CS_P_IKME, NULL, 0),
                 OSSL_PARAM_END)

/* Binds the context to key for op and applies params; encapsulation
 * needs the public key, decapsulation the private one ("missing key"
 * otherwise). */
static int kem_init(kem_ctx *ctx, int op, cs_mlkem_key *key, const OSSL_PARAM params[])
{
    if (!key || !(op == OP_ENCAPS ? key->has_pub : key->has_priv)) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    ctx->key = key;
    ctx->op = op;
    return kem_set_ctx_params(ctx, params);
}

static int kem_encapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return kem_init(vctx, OP_ENCAPS, vkey, params);
}

static int kem_decapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return kem_init(vctx, OP_DECAPS, vkey, params);
}

/* Stock's check of an output's length pointer: present (else "null
 * <what> input/output length pointer") and at least need (else "<buf>
 * buffer too small"); then set to need. */
static int out_len_ok(const cs_prov *prov, size_t *len, size_t need, const char *what,
                      const char *buf)
{
    if (len == NULL) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_NULL_LENGTH_POINTER,
                 "null %s input/output length pointer", what);
        return 0;
    }
    if (*len < need) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL, "%s buffer too small", buf);
        return 0;
    }
    *len = need;
    return 1;
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
    if (!out_len_ok(prov, ctlen, ctb, "ciphertext", "ciphertext") ||
        !out_len_ok(prov, sslen, CS_MLKEM_SYM_BYTES, "shared secret", "shared-secret"))
        goto end;
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
    if (sslen != NULL &&
        !out_len_ok(ctx->prov, sslen, CS_MLKEM_SYM_BYTES, "shared secret", "shared-secret"))
        return 0;
    if (ct == NULL || ctlen != cs_mlkem_ct_bytes(key->hooks->ps)) {
        (void)cs_prov_random(ctx->prov, ss, CS_MLKEM_SYM_BYTES);
        return 0;
    }
    return cs_mlkem_key_decaps(key, ss, ct);
}

const OSSL_DISPATCH cs_mlkem_kem[] = {
    CS_FN(OSSL_FUNC_KEM_NEWCTX, kem_newctx),
    CS_FN(OSSL_FUNC_KEM_ENCAPSULATE_INIT, kem_encapsulate_init),
    CS_FN(OSSL_FUNC_KEM_ENCAPSULATE, kem_encapsulate),
    CS_FN(OSSL_FUNC_KEM_DECAPSULATE_INIT, kem_decapsulate_init),
    CS_FN(OSSL_FUNC_KEM_DECAPSULATE, kem_decapsulate),
    CS_FN(OSSL_FUNC_KEM_FREECTX, kem_freectx),
    CS_FN(OSSL_FUNC_KEM_SET_CTX_PARAMS, kem_set_ctx_params),
    CS_FN(OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, kem_settable_ctx_params),
    {0, NULL},
};
