/* ML-DSA key management: generation (optionally from a given seed), import
 * and export of seed / expanded private key / public key under OpenSSL 3.5's
 * parameter names, has, match, validate, dup and get_params. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dispatch.h"
#include "runtime/stats.h"
#include "prov.h"

/* Fields of a generation request. */
typedef struct gen_ctx {
    cs_prov *prov;
    int ps;
    size_t seed_len; /* 0: none given, 32: use it, else generation fails */
    uint8_t seed[CS_MLDSA_SEED_BYTES];
} gen_ctx;

const char *cs_mldsa_alg_name(int ps)
{
    switch (ps) {
    case 44: return "ML-DSA-44";
    case 65: return "ML-DSA-65";
    case 87: return "ML-DSA-87";
    default: return NULL;
    }
}

/* Runs KeyGen from key->seed on the dispatched kernel and counts it; the
 * key keeps its seed unless the configuration says ml-dsa.retain_seed=no
 * under a 3.5 or 3.6 core (which drop it here; 4.0 keeps it and its
 * encoder leaves it out). */
static int key_from_seed(cs_mldsa_key *key)
{
    const cs_mldsa_impl *impl = cs_dispatch_mldsa(key->ps);
    cs_stats_count(CS_OP_MLDSA_KEYGEN, cs_mldsa_impl_name(impl), (unsigned)key->ps);
    if (cs_mldsa_keygen(impl, key->ps, key->pk, key->sk, key->seed) != 0)
        return 0;
    key->has_seed = key->has_priv = key->has_pub = 1;
    if (key->prov->core_version < 400 && !(cs_prov_conf(key->prov) & CS_CONF_DSA_RETAIN_SEED)) {
        cs_prov_cleanse(key->seed, CS_MLDSA_SEED_BYTES);
        key->has_seed = 0;
    }
    return 1;
}

/* Allocates an empty key of parameter set ps. */
static cs_mldsa_key *key_new(cs_prov *prov, int ps)
{
    /* Only the header is zeroed: pk is read only once has_pub says it is
     * set (zeroing it per key showed in keygen). */
    cs_mldsa_key *key = malloc(sizeof(*key));
    if (key) {
        memset(key, 0, offsetof(cs_mldsa_key, pk));
        key->prep_sign = key->prep_verify = NULL;
        key->prov = prov;
        key->ps = ps;
    }
    return key;
}

/* Gives the key its secret block (once): 1, or 0 if no memory. */
static int key_secret(cs_mldsa_key *key)
{
    if (!key->secret) {
        key->secret = cs_prov_secret_alloc(key->prov, CS_MLDSA_SECRET_BYTES(key->ps));
        if (!key->secret)
            return 0;
        key->seed = key->secret;
        key->sk = key->secret + CS_MLDSA_SEED_BYTES;
    }
    return 1;
}

/* Frees a key, clearing its secrets. */
static void km_free(void *vkey)
{
    cs_mldsa_key *key = vkey;
    if (!key)
        return;
    cs_key_prepared_reset(key);
    /* The secrets only (wiped by the free): the public key needs no wipe. */
    cs_prov_secret_free(key->prov, key->secret, CS_MLDSA_SECRET_BYTES(key->ps));
    free(key);
}

/* 1 if the key holds what selection asks for (OpenSSL's has()). */
static int km_has(const void *vkey, int selection)
{
    const cs_mldsa_key *key = vkey;
    if (!key)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && !key->has_pub)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !key->has_priv)
        return 0;
    return 1;
}

/* Keys match when they are of one parameter set and their public keys (or,
 * when only private parts are compared, expanded private keys) are equal. */
static int km_match(const void *v1, const void *v2, int selection)
{
    const cs_mldsa_key *a = v1, *b = v2;
    if (!a || !b || a->ps != b->ps)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    size_t pkn = cs_mldsa_pk_bytes(a->ps), skn = cs_mldsa_sk_bytes(a->ps);
    if (a->has_pub && b->has_pub && (selection & OSSL_KEYMGMT_SELECT_KEYPAIR))
        return memcmp(a->pk, b->pk, pkn) == 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && a->has_priv && b->has_priv)
        return cs_prov_ct_equal(a->sk, b->sk, skn);
    return 0;
}

/* OpenSSL's validation: the key must hold what selection names, and a
 * key-pair selection is a pairwise check: t1 and t0 recomputed from (rho,
 * s1, s2) must be the key's (pk_from_sk also checks the ranges of s1, s2
 * and tr). Other selections need nothing more. */
static int km_validate(const void *vkey, int selection, int checktype)
{
    const cs_mldsa_key *key = vkey;
    if (!km_has(key, selection))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != OSSL_KEYMGMT_SELECT_KEYPAIR)
        return 1;
    uint8_t pk[CS_MLDSA_MAX_PK_BYTES];
    if (cs_mldsa_pk_from_sk(cs_dispatch_mldsa(key->ps), key->ps, pk, key->sk) != 0)
        return 0;
    return memcmp(pk, key->pk, cs_mldsa_pk_bytes(key->ps)) == 0;
}

/* Sets the key from an expanded private key, refusing one OpenSSL refuses:
 * s1, s2 out of [-eta, eta] (silently, as OpenSSL's decoder), t0 not the
 * one (rho, s1, s2) give or tr not H(pk) (with OpenSSL's error), all
 * checked by pk_from_sk while it recomputes pk. The check runs here, once
 * per import, not on each signature. */
static int key_from_sk(cs_mldsa_key *key, const uint8_t *sk)
{
    size_t skn = cs_mldsa_sk_bytes(key->ps);
    memcpy(key->sk, sk, skn);
    int rc = cs_mldsa_pk_from_sk(cs_dispatch_mldsa(key->ps), key->ps, key->pk, key->sk);
    if (rc == -1)
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "%s private key does not match its pubkey part", cs_mldsa_alg_name(key->ps));
    if (rc != 0)
        return 0;
    key->has_priv = key->has_pub = 1;
    return 1;
}

/* Reads one key part for import: absent, or given with no data, is len 0;
 * given data must be exactly want bytes (an empty but present buffer is
 * refused, as OpenSSL does), else 0 with OpenSSL's error raised. */
static int import_part(const cs_prov *prov, const OSSL_PARAM *params, const char *name,
                       size_t want, int reason, int ps, const void **data, size_t *len)
{
    const OSSL_PARAM *p = cs_param_locate(params, name);
    *data = NULL;
    *len = 0;
    if (!p)
        return 1;
    if (!cs_param_get_octets_ptr(prov, p, data, len))
        return 0;
    /* no data is no part; so is an empty buffer from 4.0 on (data kept:
     * an empty priv beside a seed still fails there) */
    if (*data == NULL || (*len == 0 && prov->core_version >= 400)) {
        *len = 0;
        return 1;
    }
    if (*len != want) {
        if (reason == CS_PROV_R_INVALID_SEED_LENGTH)
            CS_RAISE(prov, CS_LIB_PROV, reason, NULL);
        else
            CS_RAISE(prov, CS_LIB_PROV, reason, "Invalid %s %s key length", cs_mldsa_alg_name(ps),
                     name[1] == 'u' ? "public" : "private");
        return 0;
    }
    return 1;
}

/* Imports seed / priv / pub as OpenSSL's own keymgmt does: the seed when
 * there is no expanded key or ml-dsa.prefer_seed is yes (the default: a
 * given expanded key must then be, whole, the one the seed gives), else
 * the expanded key (the seed ignored), else the public key; a given public
 * key must match. Each refusal raises the errors OpenSSL raises there. */
static int km_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    cs_mldsa_key *key = vkey;
    const void *seed = NULL, *sk = NULL, *pk = NULL;
    size_t seedn = 0, skn = 0, pkn = 0;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    const cs_prov *prov = key->prov;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    const char *alg = cs_mldsa_alg_name(key->ps);
    size_t want_pk = cs_mldsa_pk_bytes(key->ps), want_sk = cs_mldsa_sk_bytes(key->ps);

    if (!import_part(prov, params, CS_P_PUB, want_pk, CS_PROV_R_INVALID_KEY_LENGTH, key->ps,
                     &pk, &pkn))
        return 0;
    if (priv && !import_part(prov, params, CS_P_SEED, CS_MLDSA_SEED_BYTES,
                             CS_PROV_R_INVALID_SEED_LENGTH, key->ps, &seed, &seedn))
        return 0;
    if (priv && !import_part(prov, params, CS_P_PRIV, want_sk, CS_PROV_R_INVALID_KEY_LENGTH,
                             key->ps, &sk, &skn))
        return 0;
    if (seedn == 0 && skn == 0 && pkn == 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    /* 4.0 refuses, silently, a seed beside an empty expanded key */
    if (seedn != 0 && sk != NULL && skn == 0)
        return 0;

    cs_key_prepared_reset(key); /* derived from the material replaced here */
    key->has_seed = key->has_priv = key->has_pub = 0;
    int ok;
    if ((seedn != 0 || skn != 0) && !key_secret(key))
        return 0;
    if (seedn != 0 && (skn == 0 || (cs_prov_conf(prov) & CS_CONF_DSA_PREFER_SEED))) {
        memcpy(key->seed, seed, seedn);
        ok = key_from_seed(key);
        if (ok && skn != 0 && !cs_prov_ct_equal(key->sk, sk, skn)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "explicit %s private key does not match seed", alg);
            ok = 0;
        }
        if (!ok) /* stock's import adds this to the generation's own error */
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_FAILED_TO_GENERATE_KEY, NULL);
    } else if (skn != 0) {
        ok = key_from_sk(key, sk);
    } else {
        memcpy(key->pk, pk, pkn);
        key->has_pub = ok = 1;
    }
    if (ok && pkn != 0 && (seedn != 0 || skn != 0) && memcmp(key->pk, pk, pkn) != 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "explicit %s public key does not match private", alg);
        ok = 0;
    }
    if (!ok) {
        key->has_seed = key->has_priv = key->has_pub = 0;
        if (key->secret)
            cs_prov_cleanse(key->secret, CS_MLDSA_SECRET_BYTES(key->ps));
    }
    return ok;
}

static const OSSL_PARAM key_types[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters import and export handle for a key-pair selection. */
static const OSSL_PARAM *km_imexport_types(int selection)
{
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ? key_types : NULL;
}

/* Exports seed (if kept) and expanded private key for a private selection,
 * and the public key for a public one, to the callback, as OpenSSL does.
 * One exception, so that the default provider's encoders, which import
 * what this exports, write for our keys what they write for its own:
 * under ml-dsa.prefer_seed=no its import would take an expanded key beside
 * the seed and drop the seed (its own keys keep theirs), so a key holding
 * its seed exports the seed without the expanded key there. */
static int km_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    cs_mldsa_key *key = vkey;
    OSSL_PARAM params[4];
    int n = 0;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        if (key->has_seed)
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_SEED, key->seed,
                                                              CS_MLDSA_SEED_BYTES);
        if (key->has_priv &&
            !(key->has_seed && !(cs_prov_conf(key->prov) & CS_CONF_DSA_PREFER_SEED)))
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PRIV, key->sk,
                                                              cs_mldsa_sk_bytes(key->ps));
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && key->has_pub)
        params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PUB, key->pk,
                                                          cs_mldsa_pk_bytes(key->ps));
    if (n == 0)
        return 0;
    params[n] = (OSSL_PARAM)OSSL_PARAM_END;
    return cb(params, cbarg);
}

/* Security strength in bits (FIPS 204 categories 2, 3, 5). */
static int sec_bits(int ps)
{
    return ps == 44 ? 128 : ps == 65 ? 192 : 256;
}

/* bits (8 x public key size, as OpenSSL reports), security bits and
 * category, maximum signature size, the key material, and an empty
 * mandatory digest (ML-DSA signs messages, not digests). */
static int km_get_params(void *vkey, OSSL_PARAM params[])
{
    cs_mldsa_key *key = vkey;
    OSSL_PARAM *p;
    if (!key)
        return 0;
    const cs_prov *prov = key->prov;
    if ((p = cs_param_locate_mut(params, CS_P_BITS)) &&
        !cs_param_set_int(prov, p, 8 * (int64_t)cs_mldsa_pk_bytes(key->ps)))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_SECURITY_BITS)) &&
        !cs_param_set_int(prov, p, sec_bits(key->ps)))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_SECURITY_CATEGORY)) &&
        !cs_param_set_int(prov, p, key->ps == 44 ? 2 : key->ps == 65 ? 3 : 5))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_MAX_SIZE)) &&
        !cs_param_set_int(prov, p, (int64_t)cs_mldsa_sig_bytes(key->ps)))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_SEED)) && key->has_seed &&
        !cs_param_set_octets(prov, p, key->seed, CS_MLDSA_SEED_BYTES))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_PRIV)) && key->has_priv &&
        !cs_param_set_octets(prov, p, key->sk, cs_mldsa_sk_bytes(key->ps)))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_PUB)) && key->has_pub &&
        !cs_param_set_octets(prov, p, key->pk, cs_mldsa_pk_bytes(key->ps)))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_MANDATORY_DIGEST)) && !cs_param_set_utf8(prov, p, ""))
        return 0;
    return 1;
}

static const OSSL_PARAM gettable[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_CATEGORY, NULL),
    OSSL_PARAM_int(CS_P_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters get_params answers. */
static const OSSL_PARAM *km_gettable_params(void *provctx)
{
    return gettable;
}

/* Copies the parts of a key that selection names. */
static void *km_dup(const void *vsrc, int selection)
{
    const cs_mldsa_key *src = vsrc;
    cs_mldsa_key *key = src ? key_new(src->prov, src->ps) : NULL;
    if (!key)
        return NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && src->has_pub) {
        memcpy(key->pk, src->pk, sizeof key->pk);
        key->has_pub = 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && src->has_priv) {
        if (!key_secret(key)) {
            km_free(key);
            return NULL;
        }
        memcpy(key->sk, src->sk, cs_mldsa_sk_bytes(src->ps));
        if (src->has_seed)
            memcpy(key->seed, src->seed, CS_MLDSA_SEED_BYTES);
        key->has_priv = 1;
        key->has_seed = src->has_seed;
    }
    return key;
}

/* Reads the optional seed for generation as OpenSSL does: up to 32 bytes
 * are taken here (more: error), an empty one means none, and a length
 * other than 32 makes gen() fail. */
static int gen_set_params(void *vgen, const OSSL_PARAM params[])
{
    gen_ctx *g = vgen;
    const OSSL_PARAM *p;
    if (!g)
        return 0;
    if ((p = cs_param_locate(params, CS_P_SEED)) &&
        !cs_param_get_octets(g->prov, p, g->seed, sizeof g->seed, &g->seed_len)) {
        g->seed_len = 0;
        return 0;
    }
    return 1;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters generation accepts. */
static const OSSL_PARAM *gen_settable_params(void *vgen, void *provctx)
{
    return gen_settable;
}

/* Frees a generation context, clearing a given seed (it is in secret
 * memory: the seed is the private key). */
static void gen_cleanup(void *vgen)
{
    gen_ctx *g = vgen;
    if (g)
        cs_prov_secret_free(g->prov, g, sizeof *g);
}

/* Generates a key pair from the given seed or 32 fresh random bytes. */
static void *gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
    gen_ctx *g = vgen;
    cs_mldsa_key *key = g ? key_new(g->prov, g->ps) : NULL;
    if (!key)
        return NULL;
    if (!key_secret(key))
        goto err;
    if (g->seed_len == CS_MLDSA_SEED_BYTES)
        memcpy(key->seed, g->seed, CS_MLDSA_SEED_BYTES);
    else if (g->seed_len != 0 || !cs_prov_random(g->prov, key->seed, CS_MLDSA_SEED_BYTES))
        goto err;
    if (!key_from_seed(key))
        goto err;
    return key;
err:
    km_free(key);
    return NULL;
}

#define KEYMGMT(PS)                                                                   \
    static void *km_new_##PS(void *provctx) { return key_new(provctx, PS); }         \
    static void *gen_init_##PS(void *provctx, int selection, const OSSL_PARAM p[])   \
    {                                                                                 \
        gen_ctx *g = cs_prov_secret_alloc(provctx, sizeof(*g));                       \
        if (!g)                                                                       \
            return NULL;                                                              \
        g->prov = provctx;                                                            \
        g->ps = PS;                                                                   \
        if (!gen_set_params(g, p)) {                                                  \
            gen_cleanup(g);                                                           \
            return NULL;                                                              \
        }                                                                             \
        return g;                                                                     \
    }                                                                                 \
    static const char *km_opname_##PS(int op) { return "ML-DSA-" #PS; }              \
    const OSSL_DISPATCH cs_mldsa##PS##_keymgmt[] = {                                  \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new_##PS},                         \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free},                            \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has},                              \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match},                          \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))km_validate},                    \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import},                        \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_imexport_types},          \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export},                        \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_imexport_types},          \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params},                \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable_params},      \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup},                              \
        {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))km_opname_##PS},     \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))gen_init_##PS},                  \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))gen_set_params},           \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))gen_settable_params}, \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))gen},                                 \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))gen_cleanup},                 \
        {0, NULL},                                                                    \
    };

KEYMGMT(44)
KEYMGMT(65)
KEYMGMT(87)
