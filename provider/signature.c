/* ML-DSA signature: one-shot sign/verify, message sign/verify
 * init/update/final, digest-sign/verify one-shot, and OpenSSL 3.5's context
 * parameters (context string, deterministic, message encoding, mu, test
 * entropy, signature for verify-final, algorithm id). */
#include <stdlib.h>
#include <string.h>

#include "runtime/dispatch.h"
#include "runtime/stats.h"
#include "key.h"

#define OP_NONE 0
#define OP_SIGN 1
#define OP_VERIFY 2

/* Message encodings (EVP_SIGNATURE-ML-DSA(7)): raw (0) takes M' as given;
 * any other value is pure, as OpenSSL reads it. */
#define ENCODE_RAW 0
#define ENCODE_PURE 1

typedef struct sig_ctx {
    cs_prov *prov;
    int ps;
    cs_mldsa_key *key; /* owned by the EVP_PKEY, which outlives the operation */
    int op;
    uint8_t context[CS_MLDSA_MAX_CTX_BYTES];
    size_t context_len;
    uint8_t entropy[CS_MLDSA_RND_BYTES];
    int has_entropy;
    int deterministic;
    int encoding;
    int mu; /* the input is mu itself */
    cs_shake256 stream; /* mu over a streamed message */
    int streaming;
    uint8_t *sig; /* for verify-message final */
    size_t sig_len;
} sig_ctx;

/* DER AlgorithmIdentifier of id-ml-dsa-NN (2.16.840.1.101.3.4.3.17..19),
 * with parameters absent as RFC 9881 requires. */
static const uint8_t *alg_id(int ps, size_t *len)
{
    static const uint8_t aid[3][13] = {
        {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11},
        {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12},
        {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13},
    };
    *len = sizeof aid[0];
    return aid[ps == 44 ? 0 : ps == 65 ? 1 : 2];
}

/* Frees a context and its copy of the signature to verify. */
static void sig_freectx(void *vctx)
{
    sig_ctx *c = vctx;
    if (c)
        free(c->sig);
    cs_opctx_free(c, sizeof(*c));
}

/* Copies a context, mid-stream included (the SHAKE state is plain data). */
static void *sig_dupctx(void *vctx)
{
    const sig_ctx *src = vctx;
    sig_ctx *c = cs_opctx_dup(src, sizeof(*c));
    if (!c)
        return NULL;
    if (src->sig) {
        c->sig = malloc(src->sig_len ? src->sig_len : 1);
        if (!c->sig) {
            free(c);
            return NULL;
        }
        memcpy(c->sig, src->sig, src->sig_len);
    }
    return c;
}

/* Applies the settable parameters; 0 on a malformed or out-of-range one. */
static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t n;
    if (!c)
        return 0;
    const cs_prov *prov = c->prov;
    if ((p = cs_param_locate(params, CS_P_CONTEXT_STRING)) &&
        !cs_param_get_octets(prov, p, c->context, sizeof c->context, &c->context_len)) {
        c->context_len = 0;
        return 0;
    }
    if ((p = cs_param_locate(params, CS_P_TEST_ENTROPY))) {
        c->has_entropy = 0;
        if (!cs_param_get_octets(prov, p, c->entropy, sizeof c->entropy, &n))
            return 0;
        if (n != sizeof c->entropy) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_SEED_LENGTH, NULL);
            return 0;
        }
        c->has_entropy = 1;
    }
    if ((p = cs_param_locate(params, CS_P_DETERMINISTIC)) &&
        !cs_param_get_int(prov, p, &c->deterministic))
        return 0;
    if ((p = cs_param_locate(params, CS_P_MESSAGE_ENCODING)) &&
        !cs_param_get_int(prov, p, &c->encoding))
        return 0;
    if ((p = cs_param_locate(params, CS_P_MU)) && !cs_param_get_int(prov, p, &c->mu))
        return 0;
    if ((p = cs_param_locate(params, CS_P_SIGNATURE)) && c->op == OP_VERIFY) {
        const void *d;
        if (!cs_param_get_octets_ptr(prov, p, &d, &n))
            return 0;
        free(c->sig);
        c->sig = malloc(n ? n : 1);
        c->sig_len = 0;
        if (!c->sig)
            return 0;
        memcpy(c->sig, d, n);
        c->sig_len = n;
    }
    return 1;
}

/* What signing and verifying both take; verifying adds the signature. */
#define P_SETTABLE                                                                            \
    OSSL_PARAM_octet_string(CS_P_CONTEXT_STRING, NULL, 0),                                    \
        OSSL_PARAM_octet_string(CS_P_TEST_ENTROPY, NULL, 0),                                  \
        OSSL_PARAM_int(CS_P_DETERMINISTIC, 0), OSSL_PARAM_int(CS_P_MESSAGE_ENCODING, 0),      \
        OSSL_PARAM_int(CS_P_MU, 0)
static const OSSL_PARAM settable_sign[] = {P_SETTABLE, OSSL_PARAM_END};
static const OSSL_PARAM settable_verify[] = {
    P_SETTABLE, OSSL_PARAM_octet_string(CS_P_SIGNATURE, NULL, 0), OSSL_PARAM_END,
};

/* The parameters set_ctx_params accepts (the signature only when verifying). */
static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx)
{
    sig_ctx *c = vctx;
    return c && c->op == OP_VERIFY ? settable_verify : settable_sign;
}

/* Answers algorithm-id (for certificates and CMS). */
static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    sig_ctx *c = vctx;
    OSSL_PARAM *p;
    size_t len;
    if (!c)
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_ALGORITHM_ID))) {
        const uint8_t *aid = alg_id(c->ps, &len);
        if (!cs_param_set_octets(c->prov, p, c->key ? aid : NULL, c->key ? len : 0))
            return 0;
    }
    return 1;
}

/* The parameters get_ctx_params answers. */
CS_CTX_PARAMS_FN(sig_gettable_ctx_params, OSSL_PARAM_octet_string(CS_P_ALGORITHM_ID, NULL, 0),
                 OSSL_PARAM_END)

/* Starts a sign or verify operation with key (or the one already set);
 * the key must be of this algorithm's parameter set. A key without the
 * private part is refused when signing, not here (as OpenSSL does). */
static int sig_init(sig_ctx *c, void *vkey, const OSSL_PARAM params[], int op)
{
    cs_mldsa_key *key = vkey;
    if (!c || (!key && !c->key))
        return 0;
    if (key) {
        if (key->hooks->ps != c->ps || (op == OP_VERIFY && !key->has_pub))
            return 0;
        c->key = key;
    }
    c->op = op;
    c->mu = 0;
    c->streaming = 0;
    return sig_set_ctx_params(c, params);
}

static int sig_sign_msg_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return sig_init(vctx, vkey, params, OP_SIGN);
}

static int sig_verify_msg_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return sig_init(vctx, vkey, params, OP_VERIFY);
}

/* Digest-sign/verify init: ML-DSA takes no digest name; with no key, only
 * the parameters change (as OpenSSL's own implementation behaves). */
static int sig_digest_init(sig_ctx *c, const char *mdname, void *vkey,
                           const OSSL_PARAM params[], int op)
{
    if (!c)
        return 0;
    if (mdname && *mdname) {
        CS_RAISE(c->prov, CS_LIB_PROV, CS_PROV_R_INVALID_DIGEST,
                 "Explicit digest not supported for ML-DSA operations");
        return 0;
    }
    c->mu = 0;
    if (!vkey && c->key)
        return sig_set_ctx_params(c, params);
    return sig_init(c, vkey, params, op);
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *vkey,
                                const OSSL_PARAM params[])
{
    return sig_digest_init(vctx, mdname, vkey, params, OP_SIGN);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *vkey,
                                  const OSSL_PARAM params[])
{
    return sig_digest_init(vctx, mdname, vkey, params, OP_VERIFY);
}

/* The 32 bytes rnd for signing: test entropy if set, zeros when
 * deterministic, else fresh from the DRBG. */
static int sign_rnd(const sig_ctx *c, uint8_t rnd[CS_MLDSA_RND_BYTES])
{
    if (c->has_entropy) {
        memcpy(rnd, c->entropy, CS_MLDSA_RND_BYTES);
        return 1;
    }
    if (c->deterministic == 1) {
        memset(rnd, 0, CS_MLDSA_RND_BYTES);
        return 1;
    }
    return cs_prov_random(c->prov, rnd, CS_MLDSA_RND_BYTES);
}

/* Begins mu = SHAKE256(tr || M', 64) where M' = 0 || ctxlen || ctx || M for
 * pure encoding and M' = M for raw. */
static int stream_start(sig_ctx *c)
{
    uint8_t trbuf[CS_MLDSA_TR_BYTES];
    const uint8_t *tr = trbuf;
    const cs_mldsa_prepared *pr;
    /* tr = H(pk): kept in sk, or in the prepared public key, so it is
     * hashed once per key rather than once per message. */
    if (c->op == OP_SIGN && c->key->has_priv)
        tr = c->key->priv + 64;
    else if ((pr = cs_key_prepared_verify(c->key, cs_dispatch_mldsa(c->ps))))
        tr = cs_mldsa_prepared_tr(pr);
    else if (cs_mldsa_pk_tr(cs_dispatch_mldsa(c->ps), c->ps, trbuf, c->key->pub) != 0)
        return 0;
    cs_shake256_init(&c->stream, cs_dispatch_keccak());
    cs_shake256_absorb(&c->stream, tr, CS_MLDSA_TR_BYTES);
    if (c->encoding != ENCODE_RAW) {
        uint8_t hdr[2] = {0, (uint8_t)c->context_len};
        cs_shake256_absorb(&c->stream, hdr, 2);
        cs_shake256_absorb(&c->stream, c->context, c->context_len);
    }
    c->streaming = 1;
    return 1;
}

/* mu of the stream so far, leaving the stream open (copy, then squeeze). */
static void stream_mu(const sig_ctx *c, uint8_t mu[CS_MLDSA_MU_BYTES])
{
    cs_shake256 st = c->stream;
    cs_shake256_squeeze(&st, mu, CS_MLDSA_MU_BYTES);
    cs_prov_cleanse(&st, sizeof st);
}

/* Signs into sig mu (already computed) or, with mu NULL, msg with the
 * context string (pure encoding), on the prepared key when there is one;
 * counts the call. */
static int sign_with(sig_ctx *c, uint8_t *sig, const uint8_t *mu, const uint8_t *msg,
                     size_t msglen)
{
    uint8_t rnd[CS_MLDSA_RND_BYTES];
    const cs_mldsa_impl *impl = cs_dispatch_mldsa(c->ps);
    if (!sign_rnd(c, rnd))
        return 0;
    cs_stats_count(CS_OP_MLDSA_SIGN, cs_mldsa_impl_name(impl), (unsigned)c->ps);
    const cs_mldsa_prepared *pr = cs_key_prepared_sign(c->key, impl);
    int rc;
    if (mu)
        rc = pr ? cs_mldsa_sign_mu_prepared(pr, sig, mu, rnd)
                : cs_mldsa_sign_mu(impl, c->ps, sig, c->key->priv, mu, rnd);
    else
        rc = pr ? cs_mldsa_sign_prepared(pr, sig, msg, msglen, c->context, c->context_len, rnd)
                : cs_mldsa_sign(impl, c->ps, sig, c->key->priv, msg, msglen, c->context,
                                c->context_len, rnd);
    cs_prov_cleanse(rnd, sizeof rnd);
    return rc == 0;
}

/* Signs mu (already computed) into sig; counts the call. */
static int sign_mu(sig_ctx *c, uint8_t *sig, const uint8_t mu[CS_MLDSA_MU_BYTES])
{
    return sign_with(c, sig, mu, NULL, 0);
}

/* Verifies sig over mu or, with mu NULL, over msg with the context string
 * (pure encoding), on the prepared key when there is one; counts the
 * call. */
static int verify_with(sig_ctx *c, const uint8_t *sig, size_t siglen, const uint8_t *mu,
                       const uint8_t *msg, size_t msglen)
{
    const cs_mldsa_impl *impl = cs_dispatch_mldsa(c->ps);
    cs_stats_count(CS_OP_MLDSA_VERIFY, cs_mldsa_impl_name(impl), (unsigned)c->ps);
    const cs_mldsa_prepared *pr = cs_key_prepared_verify(c->key, impl);
    if (mu)
        return (pr ? cs_mldsa_verify_mu_prepared(pr, sig, siglen, mu)
                   : cs_mldsa_verify_mu(impl, c->ps, sig, siglen, mu, c->key->pub)) == 0;
    return (pr ? cs_mldsa_verify_prepared(pr, sig, siglen, msg, msglen, c->context,
                                          c->context_len)
               : cs_mldsa_verify(impl, c->ps, sig, siglen, msg, msglen, c->context,
                                 c->context_len, c->key->pub)) == 0;
}

/* Verifies sig over mu; counts the call. */
static int verify_mu(sig_ctx *c, const uint8_t *sig, size_t siglen,
                     const uint8_t mu[CS_MLDSA_MU_BYTES])
{
    return verify_with(c, sig, siglen, mu, NULL, 0);
}

/* 1 if an external mu has the right length; else 0, with the error
 * OpenSSL 3.6 and later raise (3.5 raises none). */
static int mu_length_ok(const sig_ctx *c, size_t len)
{
    if (len == CS_MLDSA_MU_BYTES)
        return 1;
    if (c->prov->core_version >= 306)
        CS_RAISE(c->prov, CS_LIB_PROV, CS_PROV_R_BAD_LENGTH, NULL);
    return 0;
}

/* 1 if a signature to verify has this parameter set's length; else 0,
 * with the error OpenSSL 4.0 raises (earlier releases raise none). */
static int sig_length_ok(const sig_ctx *c, size_t len)
{
    if (len == cs_mldsa_sig_bytes(c->ps))
        return 1;
    if (c->prov->core_version >= 400)
        CS_RAISE(c->prov, CS_LIB_PROV, CS_PROV_R_BAD_LENGTH, NULL);
    return 0;
}

/* One-shot sign of msg (or of mu when the mu parameter is set). With sig
 * NULL, only reports the signature size. */
static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *msg, size_t msglen)
{
    sig_ctx *c = vctx;
    if (!c || !c->key || !c->key->has_priv)
        return 0;
    size_t need = cs_mldsa_sig_bytes(c->ps);
    if (!sig) {
        *siglen = need;
        return 1;
    }
    if (sigsize < need)
        return 0;
    int ok;
    if (c->mu) {
        ok = mu_length_ok(c, msglen) && sign_mu(c, sig, msg);
    } else if (c->encoding != ENCODE_RAW) {
        ok = sign_with(c, sig, NULL, msg, msglen);
    } else {
        uint8_t mu[CS_MLDSA_MU_BYTES];
        ok = stream_start(c);
        if (ok) {
            cs_shake256_absorb(&c->stream, msg, msglen);
            stream_mu(c, mu);
            c->streaming = 0;
            ok = sign_mu(c, sig, mu);
        }
    }
    if (ok)
        *siglen = need;
    return ok;
}

/* One-shot verify: 1 if sig is valid for msg (or mu), else 0. */
static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *msg, size_t msglen)
{
    sig_ctx *c = vctx;
    if (!c || !c->key || !c->key->has_pub || !sig_length_ok(c, siglen))
        return 0;
    if (c->mu)
        return mu_length_ok(c, msglen) && verify_mu(c, sig, siglen, msg);
    if (c->encoding != ENCODE_RAW)
        return verify_with(c, sig, siglen, NULL, msg, msglen);
    uint8_t mu[CS_MLDSA_MU_BYTES];
    if (!stream_start(c))
        return 0;
    cs_shake256_absorb(&c->stream, msg, msglen);
    stream_mu(c, mu);
    c->streaming = 0;
    return verify_mu(c, sig, siglen, mu);
}

/* Feeds message bytes to a message sign/verify operation. */
static int sig_msg_update(void *vctx, const unsigned char *data, size_t len)
{
    sig_ctx *c = vctx;
    if (!c || !c->key || c->mu)
        return 0;
    if (!c->streaming && !stream_start(c))
        return 0;
    cs_shake256_absorb(&c->stream, data, len);
    return 1;
}

/* Signs the streamed message; sig NULL reports the size only. */
static int sig_sign_msg_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize)
{
    sig_ctx *c = vctx;
    uint8_t mu[CS_MLDSA_MU_BYTES];
    if (!c || !c->key || !c->key->has_priv || c->mu)
        return 0;
    size_t need = cs_mldsa_sig_bytes(c->ps);
    if (!sig) {
        *siglen = need;
        return 1;
    }
    if (sigsize < need || (!c->streaming && !stream_start(c)))
        return 0;
    stream_mu(c, mu);
    if (!sign_mu(c, sig, mu))
        return 0;
    *siglen = need;
    return 1;
}

/* Verifies the streamed message against the "signature" parameter. */
static int sig_verify_msg_final(void *vctx)
{
    sig_ctx *c = vctx;
    uint8_t mu[CS_MLDSA_MU_BYTES];
    if (!c || !c->key || !c->key->has_pub || c->mu || !c->sig || !sig_length_ok(c, c->sig_len))
        return 0;
    if (!c->streaming && !stream_start(c))
        return 0;
    stream_mu(c, mu);
    return verify_mu(c, c->sig, c->sig_len, mu);
}

/* Key types a signature algorithm works with. */
#define SIGNATURE(PS)                                                                         \
    static void *sig_newctx_##PS(void *provctx, const char *propq)                           \
    {                                                                                         \
        sig_ctx *c = cs_opctx_new(provctx, sizeof(*c));                                       \
        if (c) {                                                                              \
            c->ps = PS;                                                                       \
            c->encoding = ENCODE_PURE;                                                        \
        }                                                                                     \
        return c;                                                                             \
    }                                                                                         \
    static const char **sig_key_types_##PS(void)                                              \
    {                                                                                         \
        static const char *names[] = {"ML-DSA-" #PS, NULL};                                  \
        return names;                                                                         \
    }                                                                                         \
    const OSSL_DISPATCH cs_mldsa##PS##_signature[] = {                                        \
        /* the CS_SIG_STREAMING_ENTRIES first: 3.5 has no streaming */                        \
        CS_FN(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE, sig_msg_update),                       \
        CS_FN(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL, sig_sign_msg_final),                    \
        CS_FN(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE, sig_msg_update),                     \
        CS_FN(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL, sig_verify_msg_final),                \
        CS_FN(OSSL_FUNC_SIGNATURE_NEWCTX, sig_newctx_##PS),                                   \
        CS_FN(OSSL_FUNC_SIGNATURE_FREECTX, sig_freectx),                                      \
        CS_FN(OSSL_FUNC_SIGNATURE_DUPCTX, sig_dupctx),                                        \
        CS_FN(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, sig_sign_msg_init),                      \
        CS_FN(OSSL_FUNC_SIGNATURE_SIGN, sig_sign),                                            \
        CS_FN(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, sig_verify_msg_init),                  \
        CS_FN(OSSL_FUNC_SIGNATURE_VERIFY, sig_verify),                                        \
        CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, sig_digest_sign_init),                    \
        CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN, sig_sign),                                     \
        CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, sig_digest_verify_init),                \
        CS_FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, sig_verify),                                 \
        CS_FN(OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, sig_set_ctx_params),                        \
        CS_FN(OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, sig_settable_ctx_params),              \
        CS_FN(OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, sig_get_ctx_params),                        \
        CS_FN(OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, sig_gettable_ctx_params),              \
        CS_FN(OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES, sig_key_types_##PS),                       \
        {0, NULL},                                                                            \
    };

SIGNATURE(44)
SIGNATURE(65)
SIGNATURE(87)
