/* X25519 key exchange (derive) as stock's
 * providers/implementations/exchange/ecx_exch.c and ossl_ecx_compute_key:
 * the same checks and errors, an all-zero shared secret (a low-order peer
 * value) refused with "failed during derivation". */
#include <stdlib.h>

#include <openssl/err.h>

#include "ecx.h"
#include "runtime/stats.h"

typedef struct exch_ctx {
    cs_prov *prov;
    cs_key *key, *peer;
} exch_ctx;

/* A new context (no key yet). */
static void *exch_newctx(void *provctx)
{
    return cs_opctx_new(provctx, sizeof(exch_ctx));
}

/* Replaces *slot with key (referenced); refuses a key of another family
 * with stock's internal error. */
static int hold(exch_ctx *ctx, cs_key **slot, cs_key *key)
{
    if (!ctx || !key || key->hooks->ps != 25519) {
        CS_RAISE(ctx ? ctx->prov : NULL, CS_LIB_PROV, ERR_R_INTERNAL_ERROR, NULL);
        return 0;
    }
    cs_key_up_ref(key);
    cs_key_free(*slot);
    *slot = key;
    return 1;
}

/* Sets our key (params are ignored, as stock does). */
static int exch_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    exch_ctx *ctx = vctx;
    (void)params;
    return hold(ctx, ctx ? &ctx->key : NULL, vkey);
}

/* Sets the peer's key. */
static int exch_set_peer(void *vctx, void *vkey)
{
    exch_ctx *ctx = vctx;
    return hold(ctx, ctx ? &ctx->peer : NULL, vkey);
}

/* The shared secret X25519(priv, peer's public value), counted. Without
 * an output buffer only its size (32). */
static int exch_derive(void *vctx, unsigned char *secret, size_t *secretlen, size_t outlen)
{
    exch_ctx *ctx = vctx;
    if (!ctx->key || !ctx->key->has_priv || !ctx->peer) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    if (secret == NULL) {
        *secretlen = 32;
        return 1;
    }
    if (outlen < 32) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
        return 0;
    }
    const cs_c25519_impl *impl = cs_ecx_impl(ctx->prov, CS_OP_X25519_DERIVE);
    if (!impl)
        return 0;
    /* stock reads the peer's buffer as it is (zero when it has none) */
    if (!impl->x25519(secret, ctx->key->priv, ctx->peer->pub)) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_FAILED_DURING_DERIVATION, NULL);
        return 0;
    }
    *secretlen = 32;
    return 1;
}

/* Frees a context and its key references. */
static void exch_freectx(void *vctx)
{
    exch_ctx *ctx = vctx;
    if (ctx) {
        cs_key_free(ctx->key);
        cs_key_free(ctx->peer);
    }
    cs_opctx_free(ctx, sizeof *ctx);
}

/* A copy sharing the keys. */
static void *exch_dupctx(void *vctx)
{
    exch_ctx *dst = cs_opctx_dup(vctx, sizeof(*dst));
    if (dst) {
        cs_key_up_ref(dst->key);
        cs_key_up_ref(dst->peer);
    }
    return dst;
}

/* 3.5 on: no context parameters outside FIPS (an empty list). */
static int exch_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    (void)params;
    return vctx != NULL;
}

CS_CTX_PARAMS_FN(exch_gettable_ctx_params, OSSL_PARAM_END)

/* 3.0 has the table up to dupctx; 3.5 on adds the context parameters
 * (the provider offers a 3.0 core the table without the last two). */
const OSSL_DISPATCH cs_x25519_keyexch[] = {
    CS_FN(OSSL_FUNC_KEYEXCH_GET_CTX_PARAMS, exch_get_ctx_params),
    CS_FN(OSSL_FUNC_KEYEXCH_GETTABLE_CTX_PARAMS, exch_gettable_ctx_params),
    CS_FN(OSSL_FUNC_KEYEXCH_NEWCTX, exch_newctx),
    CS_FN(OSSL_FUNC_KEYEXCH_INIT, exch_init),
    CS_FN(OSSL_FUNC_KEYEXCH_DERIVE, exch_derive),
    CS_FN(OSSL_FUNC_KEYEXCH_SET_PEER, exch_set_peer),
    CS_FN(OSSL_FUNC_KEYEXCH_FREECTX, exch_freectx),
    CS_FN(OSSL_FUNC_KEYEXCH_DUPCTX, exch_dupctx),
    {0, NULL},
};
