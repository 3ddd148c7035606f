/* ML-DSA key management on the provider key skeleton (provider/key.h):
 * generation (optionally from a given seed), import and export of seed /
 * expanded private key / public key under OpenSSL 3.5's parameter names,
 * with stock's checks and errors; has, match, validate, dup and get_params
 * are the skeleton's, the prepared signing and verifying states its
 * prepared slots (provider/prepared.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dispatch.h"
#include "runtime/stats.h"
#include "key.h"

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
static int from_seed(cs_key *key)
{
    int ps = key->hooks->ps;
    const cs_mldsa_impl *impl = cs_dispatch_mldsa(ps);
    cs_stats_count(CS_OP_MLDSA_KEYGEN, cs_mldsa_impl_name(impl), (unsigned)ps);
    if (cs_mldsa_keygen(impl, ps, key->pub, key->priv, key->seed) != 0)
        return 0;
    cs_key_seed_derived(key, CS_CONF_DSA_RETAIN_SEED);
    return 1;
}

/* Sets the public key from key->priv, refusing an expanded key OpenSSL
 * refuses: s1, s2 out of [-eta, eta] (silently, as OpenSSL's decoder), t0
 * not the one (rho, s1, s2) give or tr not H(pk) (with OpenSSL's error),
 * all checked by pk_from_sk while it recomputes pk. The check runs here,
 * once per import, not on each signature. */
static int pub_from_priv(cs_key *key)
{
    int ps = key->hooks->ps;
    int rc = cs_mldsa_pk_from_sk(cs_dispatch_mldsa(ps), ps, key->pub, key->priv);
    if (rc == -1)
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "%s private key does not match its pubkey part", cs_mldsa_alg_name(ps));
    if (rc != 0)
        return 0;
    key->has_priv = key->has_pub = 1;
    return 1;
}

/* OpenSSL's key-pair validation: t1 and t0 recomputed from (rho, s1, s2)
 * must be the key's (pk_from_sk also checks the ranges of s1, s2 and tr). */
static int pairwise(const cs_key *key)
{
    int ps = key->hooks->ps;
    uint8_t pk[CS_MLDSA_MAX_PK_BYTES];
    if (cs_mldsa_pk_from_sk(cs_dispatch_mldsa(ps), ps, pk, key->priv) != 0)
        return 0;
    return memcmp(pk, key->pub, cs_mldsa_pk_bytes(ps)) == 0;
}

/* Keys match when they are of one parameter set and their public keys (or,
 * when only private parts are compared, expanded private keys) are equal. */
static int match(const cs_key *a, const cs_key *b, int selection)
{
    if (a->hooks != b->hooks)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (a->has_pub && b->has_pub)
        return memcmp(a->pub, b->pub, a->hooks->pub_bytes) == 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && a->has_priv && b->has_priv)
        return cs_prov_ct_equal(a->priv, b->priv, a->hooks->priv_bytes);
    return 0;
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
static int import(cs_key *key, const cs_key_parts *parts, int priv)
{
    const OSSL_PARAM *params = parts->params;
    const void *seed = NULL, *sk = NULL, *pk = NULL;
    size_t seedn = 0, skn = 0, pkn = 0;
    const cs_prov *prov = key->prov;
    int ps = key->hooks->ps;
    const char *alg = cs_mldsa_alg_name(ps);
    size_t want_pk = cs_mldsa_pk_bytes(ps), want_sk = cs_mldsa_sk_bytes(ps);

    if (!import_part(prov, params, CS_P_PUB, want_pk, CS_PROV_R_INVALID_KEY_LENGTH, ps, &pk, &pkn))
        return 0;
    if (priv && !import_part(prov, params, CS_P_SEED, CS_MLDSA_SEED_BYTES,
                             CS_PROV_R_INVALID_SEED_LENGTH, ps, &seed, &seedn))
        return 0;
    if (priv && !import_part(prov, params, CS_P_PRIV, want_sk, CS_PROV_R_INVALID_KEY_LENGTH, ps,
                             &sk, &skn))
        return 0;
    if (seedn == 0 && skn == 0 && pkn == 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    /* 4.0 refuses, silently, a seed beside an empty expanded key */
    if (seedn != 0 && sk != NULL && skn == 0)
        return 0;

    int ok;
    if ((seedn != 0 || skn != 0) && !cs_key_secret(key))
        return 0;
    if (seedn != 0 && (skn == 0 || (cs_prov_conf(prov) & CS_CONF_DSA_PREFER_SEED))) {
        memcpy(key->seed, seed, seedn);
        ok = from_seed(key);
        if (ok && skn != 0 && !cs_prov_ct_equal(key->priv, sk, skn)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "explicit %s private key does not match seed", alg);
            ok = 0;
        }
        if (!ok) /* stock's import adds this to the generation's own error */
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_FAILED_TO_GENERATE_KEY, NULL);
    } else if (skn != 0) {
        memcpy(key->priv, sk, skn);
        ok = pub_from_priv(key);
    } else {
        memcpy(key->pub, pk, pkn);
        key->has_pub = ok = 1;
    }
    if (ok && pkn != 0 && (seedn != 0 || skn != 0) && memcmp(key->pub, pk, pkn) != 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "explicit %s public key does not match private", alg);
        ok = 0;
    }
    return ok; /* the skeleton empties the key on failure */
}

/* Under ml-dsa.prefer_seed=no the default provider's encoders, importing
 * our export, would take the expanded key and drop the seed its own keys
 * keep: a key holding its seed then exports the seed without it. */
static int export_seed_only(const cs_key *key)
{
    return !(cs_prov_conf(key->prov) & CS_CONF_DSA_PREFER_SEED);
}

/* The parameters get_params answers (the security category before the
 * size, unlike ML-KEM's and ECX's order). */
static const OSSL_PARAM gettable[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL), OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    CS_KEY_P_SEC_CATEGORY, OSSL_PARAM_int(CS_P_MAX_SIZE, NULL), CS_KEY_P_SEED_PRIV_PUB,
    OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0), OSSL_PARAM_END,
};

/* Reads the optional seed for generation as OpenSSL does: up to 32 bytes
 * are taken here (more: error), an empty one means none, and a length
 * other than 32 makes generation fail. */
static int gen_set_params(cs_key_gen *g, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    if ((p = cs_param_locate(params, CS_P_SEED)) &&
        !cs_param_get_octets(g->prov, p, g->seed, CS_MLDSA_SEED_BYTES, &g->seed_len)) {
        g->seed_len = 0;
        return 0;
    }
    return 1;
}

/* Generates a key pair from the given seed or 32 fresh random bytes. */
static int gen(cs_key *key, const cs_key_gen *g)
{
    if (g->seed_len == CS_MLDSA_SEED_BYTES)
        memcpy(key->seed, g->seed, CS_MLDSA_SEED_BYTES);
    else if (g->seed_len != 0 || !cs_prov_random(g->prov, key->seed, CS_MLDSA_SEED_BYTES))
        return 0;
    return from_seed(key);
}

/* One parameter set's hooks: bits is 8 x the public key's bytes, as
 * OpenSSL reports; security category 2, 3, 5 from 3.5 on. */
#define MLDSA_HOOKS(PS, PK, SK, SEC, CAT, SIG)                                            \
    static const cs_key_hooks mldsa##PS##_hooks = {                                      \
        .name = "ML-DSA-" #PS, .ps = PS, .pub_bytes = PK, .priv_bytes = SK,             \
        .seed_bytes = CS_MLDSA_SEED_BYTES, .bits = 8 * (PK), .sec_bits = SEC,           \
        .sec_category = CAT, .max_size = SIG, .sec_category_since = 305,               \
        .flags = CS_KEY_P_MAND_DIGEST | CS_KEY_RAW_PARTS | CS_KEY_EXPORT_PRIV_FIRST,    \
        .import = import, .from_seed = from_seed, .pub_from_priv = pub_from_priv,       \
        .gen = gen, .pairwise = pairwise, .match = match,                              \
        .export_seed_only = export_seed_only, .gettable = CS_KEY_PARAMS(gettable),      \
        .gen_set_params = gen_set_params,                                              \
        .gen_settable = CS_KEY_PARAMS(cs_key_gen_seed_properties),                      \
        .prepare = cs_mldsa_prepare, .unprepare = cs_mldsa_unprepare,                     \
        .opname = "ML-DSA-" #PS, .key_types = cs_key_types_seed_priv_pub,                 \
    };                                                                                    \
    CS_KEYMGMT_DISPATCH(cs_mldsa##PS##_keymgmt, mldsa##PS##_hooks);

MLDSA_HOOKS(44, 1312, 2560, 128, 2, 2420)
MLDSA_HOOKS(65, 1952, 4032, 192, 3, 3309)
MLDSA_HOOKS(87, 2592, 4896, 256, 5, 4627)
