/* Ed25519 signature as stock's providers/implementations/signature/
 * eddsa_sig.c serves the algorithm "ED25519": one-shot digest_sign and
 * digest_verify (3.0 on); from 3.5 on also sign/verify (Ed25519ph with a
 * caller's prehash), sign_message_init/verify_message_init, and the
 * "instance" (Ed25519, Ed25519ctx, Ed25519ph) and "context-string"
 * parameters. The separate algorithms ED25519ph and ED25519ctx are not
 * offered: the default provider serves them (with a key exported from
 * ours). Checks, errors and answers are stock's. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/err.h>

#include "ecx.h"
#include "runtime/stats.h"

#define MAX_CONTEXT 255 /* EDDSA_MAX_CONTEXT_STRING_LEN */
#define NAME_MAX_BYTES 50 /* OSSL_MAX_NAME_SIZE */

/* AlgorithmIdentifier of Ed25519 (RFC 8410): SEQUENCE { OID 1.3.101.112 } */
static const uint8_t ed25519_aid[] = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70};

enum instance { ID_ED25519, ID_ED25519CTX, ID_ED25519PH };

typedef struct sig_ctx {
    cs_prov *prov;
    cs_key *key;
    int instance;
    unsigned preset : 1;     /* instance fixed by the init function */
    unsigned by_caller : 1;  /* sign/verify_init: the caller prehashed */
    unsigned dom2 : 1, ph : 1, need_context : 1;
    size_t context_len;
    uint8_t context[MAX_CONTEXT];
} sig_ctx;

/* A new context. */
static void *sig_newctx(void *provctx, const char *propq)
{
    (void)propq;
    return cs_opctx_new(provctx, sizeof(sig_ctx));
}

/* Frees a context and its key reference. */
static void sig_freectx(void *vctx)
{
    sig_ctx *ctx = vctx;
    if (ctx)
        cs_key_free(ctx->key);
    cs_opctx_free(ctx, sizeof *ctx);
}

/* A copy holding the same key. */
static void *sig_dupctx(void *vctx)
{
    sig_ctx *dst = cs_opctx_dup(vctx, sizeof(*dst));
    if (dst)
        cs_key_up_ref(dst->key);
    return dst;
}

/* eddsa_setup_instance for Ed25519's three instances. */
static void setup_instance(sig_ctx *ctx, int id, int preset, int by_caller)
{
    ctx->dom2 = id != ID_ED25519;
    ctx->ph = id == ID_ED25519PH;
    ctx->need_context = id == ID_ED25519CTX;
    ctx->instance = id;
    ctx->preset = preset;
    ctx->by_caller = by_caller;
}

/* eddsa_signverify_init: holds the key, clears instance flags and the
 * context string. */
static int signverify_init(sig_ctx *ctx, cs_key *key)
{
    if (!key) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_NO_KEY_SET, NULL);
        return 0;
    }
    cs_key_up_ref(key);
    cs_key_free(ctx->key);
    ctx->key = key;
    ctx->preset = ctx->dom2 = ctx->ph = ctx->need_context = 0;
    ctx->context_len = 0;
    return 1;
}

/* eddsa_set_ctx_params (3.5 on): instance (not when preset; unknown names
 * refused; Ed448's names leave an Ed25519 context as it was, as stock's
 * ignored setup failure does) and context-string (at most 255 bytes). */
static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    sig_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    if (!ctx)
        return 0;
    if (!params || !params[0].key)
        return 1;
    if ((p = cs_param_locate(params, CS_P_INSTANCE))) {
        char name[NAME_MAX_BYTES];
        if (ctx->preset) {
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_NO_INSTANCE_ALLOWED,
                     "the EdDSA instance is preset, you may not try to specify it");
            return 0;
        }
        if (p->data_type != OSSL_PARAM_UTF8_STRING || !p->data) {
            CS_RAISE(ctx->prov, CS_LIB_CRYPTO, CS_CRYPTO_R_PARAM_OF_INCOMPATIBLE_TYPE, NULL);
            return 0;
        }
        size_t n = strnlen(p->data, p->data_size);
        if (n >= sizeof name) {
            CS_RAISE(ctx->prov, CS_LIB_CRYPTO, CS_CRYPTO_R_TOO_SMALL_BUFFER, NULL);
            return 0;
        }
        memcpy(name, p->data, n);
        name[n] = '\0';
        if (!strcasecmp(name, "Ed25519"))
            setup_instance(ctx, ID_ED25519, 0, ctx->by_caller);
        else if (!strcasecmp(name, "Ed25519ctx"))
            setup_instance(ctx, ID_ED25519CTX, 0, ctx->by_caller);
        else if (!strcasecmp(name, "Ed25519ph"))
            setup_instance(ctx, ID_ED25519PH, 0, ctx->by_caller);
        else if (strcasecmp(name, "Ed448") && strcasecmp(name, "Ed448ph")) {
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_EDDSA_INSTANCE,
                     "unknown INSTANCE name: %s", name);
            return 0;
        }
    }
    if ((p = cs_param_locate(params, CS_P_CONTEXT_STRING)) &&
        !cs_param_get_octets(ctx->prov, p, ctx->context, sizeof ctx->context,
                             &ctx->context_len)) {
        ctx->context_len = 0;
        return 0;
    }
    return 1;
}

/* The instance's message: a prehash by SHA-512 (libcrypto's, as stock)
 * or the caller's 64 bytes for ph; refusals with stock's errors. */
static int message(sig_ctx *ctx, const uint8_t **tbs, size_t *tbslen, uint8_t md[64])
{
    if (ctx->ph) {
        if (!ctx->by_caller) {
            size_t mdlen = 0;
            if (!ctx->prov->q_digest ||
                !ctx->prov->q_digest(ctx->prov->libctx, "SHA512", NULL, *tbs, *tbslen, md,
                                     &mdlen) ||
                mdlen != 64) {
                CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_PREHASHED_DIGEST_LENGTH, NULL);
                return 0;
            }
            *tbs = md;
            *tbslen = 64;
        } else if (*tbslen != 64) {
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_DIGEST_LENGTH, NULL);
            return 0;
        }
    } else if (ctx->by_caller) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_EDDSA_INSTANCE, NULL);
        return 0;
    }
    return 1;
}

/* dom2(phflag, context) of RFC 8032 into dom (its length, 0 for plain
 * Ed25519); -1 where stock's ossl_ed25519_sign/verify refuse: Ed25519ctx
 * with an empty context, or a context without dom2. */
static int make_dom(const sig_ctx *ctx, uint8_t dom[32 + 2 + MAX_CONTEXT])
{
    static const char prefix[] = "SigEd25519 no Ed25519 collisions";
    if (ctx->need_context && ctx->context_len == 0)
        return -1;
    if (!ctx->dom2)
        return ctx->context_len ? -1 : 0;
    memcpy(dom, prefix, 32);
    dom[32] = ctx->ph;
    dom[33] = (uint8_t)ctx->context_len;
    memcpy(dom + 34, ctx->context, ctx->context_len);
    return 34 + (int)ctx->context_len;
}

/* ed25519_sign: the signature of tbs under the context's key and
 * instance, counted. */
static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen)
{
    sig_ctx *ctx = vctx;
    uint8_t md[64], dom[32 + 2 + MAX_CONTEXT];
    if (sig == NULL) {
        *siglen = 64;
        return 1;
    }
    if (sigsize < 64) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
        return 0;
    }
    if (!ctx->key || !ctx->key->has_priv) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_NOT_A_PRIVATE_KEY, NULL);
        return 0;
    }
    if (!message(ctx, &tbs, &tbslen, md))
        return 0;
    int domlen = make_dom(ctx, dom);
    const cs_c25519_impl *impl = domlen < 0 ? NULL : cs_dispatch_c25519();
    if (!impl) {
        CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_FAILED_TO_SIGN, NULL);
        return 0;
    }
    cs_stats_count(CS_OP_ED25519_SIGN, impl->name, 255);
    impl->ed25519_sign(sig, dom, (size_t)domlen, tbs, tbslen, ctx->key->priv, ctx->key->pub);
    *siglen = 64;
    return 1;
}

/* ed25519_verify: 1 when sig is a valid signature of tbs, counted. */
static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen)
{
    sig_ctx *ctx = vctx;
    uint8_t md[64], dom[32 + 2 + MAX_CONTEXT];
    if (siglen != 64 || !ctx->key)
        return 0;
    if (!message(ctx, &tbs, &tbslen, md))
        return 0;
    int domlen = make_dom(ctx, dom);
    const cs_c25519_impl *impl = domlen < 0 ? NULL : cs_dispatch_c25519();
    if (!impl)
        return 0;
    cs_stats_count(CS_OP_ED25519_VERIFY, impl->name, 255);
    return impl->ed25519_verify(sig, dom, (size_t)domlen, tbs, tbslen, ctx->key->pub);
}

/* The init functions: key, Ed25519 instance with preset and
 * by_caller as setup_instance takes them, then params. */
static int init_instance(sig_ctx *ctx, void *vkey, const OSSL_PARAM params[], int preset,
                         int by_caller)
{
    if (!signverify_init(ctx, vkey))
        return 0;
    setup_instance(ctx, ID_ED25519, preset, by_caller);
    return sig_set_ctx_params(ctx, params);
}

/* digest_sign_init / digest_verify_init: no digest may be named; a NULL
 * key keeps the context's (parameters only). 3.0 raises its error
 * without text and ignores params. */
static int sig_digest_init(void *vctx, const char *mdname, void *vkey, const OSSL_PARAM params[])
{
    sig_ctx *ctx = vctx;
    int v35 = ctx->prov->core_version >= 305;
    if (mdname != NULL && mdname[0] != '\0') {
        if (v35)
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_DIGEST,
                     "Explicit digest not allowed with EdDSA operations");
        else
            CS_RAISE(ctx->prov, CS_LIB_PROV, CS_PROV_R_INVALID_DIGEST, NULL);
        return 0;
    }
    if (!v35)
        params = NULL; /* 3.0 ignores them */
    if (vkey == NULL && ctx->key != NULL)
        return sig_set_ctx_params(ctx, params);
    return init_instance(ctx, vkey, params, 0, 0);
}

/* sign_init / verify_init (3.5 on): the caller prehashes (ph instance). */
static int sig_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return init_instance(vctx, vkey, params, 0, 1);
}

/* sign_message_init / verify_message_init (3.5 on): plain Ed25519, preset. */
static int sig_message_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return init_instance(vctx, vkey, params, 1, 0);
}

/* algorithm-id: Ed25519's AlgorithmIdentifier once a key is set. */
static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    sig_ctx *ctx = vctx;
    OSSL_PARAM *p;
    if (!ctx)
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_ALGORITHM_ID))) {
        p->return_size = 0;
        if (!ctx->key) /* stock: set_octet_string(NULL, 0) fails */
            return 0;
        if (ctx->prov->core_version >= 305)
            return cs_param_set_octets(ctx->prov, p, ed25519_aid, sizeof ed25519_aid);
        p->return_size = sizeof ed25519_aid;
        if (p->data == NULL)
            return 1;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size < sizeof ed25519_aid)
            return 0;
        memcpy(p->data, ed25519_aid, sizeof ed25519_aid);
    }
    return 1;
}

/* The context parameters: set_ctx_params takes these two; 3.5 alone also
 * lists them as gettable, after algorithm-id. */
#define P_INSTANCE_CONTEXT                         \
    OSSL_PARAM_utf8_string(CS_P_INSTANCE, NULL, 0), \
        OSSL_PARAM_octet_string(CS_P_CONTEXT_STRING, NULL, 0)
#define P_ALGORITHM_ID OSSL_PARAM_octet_string(CS_P_ALGORITHM_ID, NULL, 0)
static const OSSL_PARAM gettable_30[] = {P_ALGORITHM_ID, OSSL_PARAM_END};
static const OSSL_PARAM gettable_35[] = {P_ALGORITHM_ID, P_INSTANCE_CONTEXT, OSSL_PARAM_END};

/* The list is algorithm-id alone on 3.0 and from 3.6 on. */
static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx)
{
    const cs_prov *prov = provctx;
    (void)vctx;
    return prov && prov->core_version == 305 ? gettable_35 : gettable_30;
}

CS_CTX_PARAMS_FN(sig_settable_ctx_params, P_INSTANCE_CONTEXT, OSSL_PARAM_END)

/* The key types a signature algorithm takes. */
static const char **sig_query_key_types(void)
{
    static const char *types[] = {"ED25519", NULL};
    return types;
}

/* Entries from CS_ED25519_SIG_30 on are 3.0's table; the ones before it
 * exist from 3.5 on (3.1-3.4 are not offered: provider/provider.c). */
const OSSL_DISPATCH cs_ed25519_signature[] = {
    CS_FN(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, sig_message_init),
    CS_FN(OSSL_FUNC_SIGNATURE_SIGN, sig_sign),
    CS_FN(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, sig_message_init),
    CS_FN(OSSL_FUNC_SIGNATURE_VERIFY, sig_verify),
    CS_FN(OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES, sig_query_key_types),
    CS_FN(OSSL_FUNC_SIGNATURE_SIGN_INIT, sig_init),
    CS_FN(OSSL_FUNC_SIGNATURE_VERIFY_INIT, sig_init),
    CS_FN(OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, sig_set_ctx_params),
    CS_FN(OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, sig_settable_ctx_params),
    /* 3.0 on */
    CS_FN(OSSL_FUNC_SIGNATURE_NEWCTX, sig_newctx),
    CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, sig_digest_init),
    CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN, sig_sign),
    CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, sig_digest_init),
    CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, sig_verify),
    CS_FN(OSSL_FUNC_SIGNATURE_FREECTX, sig_freectx),
    CS_FN(OSSL_FUNC_SIGNATURE_DUPCTX, sig_dupctx),
    CS_FN(OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, sig_get_ctx_params),
    CS_FN(OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, sig_gettable_ctx_params),
    {0, NULL},
};
const int cs_ed25519_sig_30 = 9;
