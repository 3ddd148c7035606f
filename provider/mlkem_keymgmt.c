/* ML-KEM key management on the provider key skeleton (provider/key.h):
 * generation (from the seed d || z or fresh randomness), import and export
 * of seed / dk / ek under OpenSSL 3.5's parameter names, the FIPS 203 key
 * checks with stock's outcome and errors, the encoded public key TLS sets
 * and gets, the KEM's use of the key (prepared or not); has, validate, dup
 * and the rest are the skeleton's, the prepared public key its slot
 * CS_KEY_PREP_PUB. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dispatch_mlkem.h"
#include "runtime/stats.h"
#include "mlkem_key.h"

const char *cs_mlkem_alg_name(int ps)
{
    switch (ps) {
    case 512: return "ML-KEM-512";
    case 768: return "ML-KEM-768";
    case 1024: return "ML-KEM-1024";
    default: return NULL;
    }
}

/* The key's prepared data if impl made it (made now, if the key has none
 * yet: a dup, or an import short of memory then); NULL when the dispatcher
 * has changed its pick since (another layout: the unprepared entry
 * serves). */
static const cs_mlkem_prepared *prepared_for(cs_mlkem_key *key, const cs_mlkem_impl *impl)
{
    const cs_mlkem_prepared *pr = cs_key_prepared(key, CS_KEY_PREP_PUB);
    return pr && cs_mlkem_prepared_impl(pr) == impl ? pr : NULL;
}

int cs_mlkem_key_encaps(cs_mlkem_key *key, uint8_t *ct, uint8_t ss[32], const uint8_t m[32])
{
    int ps = key->hooks->ps;
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(ps);
    const cs_mlkem_prepared *pr = prepared_for(key, impl);
    cs_stats_count(CS_OP_MLKEM_ENCAPS, impl->name, (unsigned)ps);
    if (pr)
        return impl->encaps_prepared(pr, ct, ss, m) == 0;
    return impl->encaps(ps, ct, ss, key->pub, m) == 0;
}

int cs_mlkem_key_decaps(cs_mlkem_key *key, uint8_t ss[32], const uint8_t *ct)
{
    int ps = key->hooks->ps;
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(ps);
    const cs_mlkem_prepared *pr = prepared_for(key, impl);
    cs_stats_count(CS_OP_MLKEM_DECAPS, impl->name, (unsigned)ps);
    if (pr)
        return impl->decaps_prepared(pr, ss, ct, key->priv) == 0;
    return impl->decaps(ps, ss, ct, key->priv) == 0;
}

/* The prepare hook: A_hat^T, t_hat and H(ek) of the key's ek by the
 * implementation dispatched now (NULL without memory). */
static void *prepare(cs_key *key, int slot)
{
    int ps = key->hooks->ps;
    cs_mlkem_prepared *pr = slot == CS_KEY_PREP_PUB ? cs_mlkem_prepared_new(ps) : NULL;
    if (pr && cs_dispatch_mlkem(ps)->prepare(ps, pr, key->pub) != 0) {
        cs_mlkem_prepared_free(pr);
        pr = NULL;
    }
    return pr;
}

/* The unprepare hook (all of it is public: nothing to wipe). */
static void unprepare(cs_key *key, void *prep, int slot)
{
    cs_mlkem_prepared_free(prep);
}

/* Gives a key not yet shared (generation, import) an empty prepared block
 * (dropping an old one); without memory the key is prepared at its first
 * use instead. */
static cs_mlkem_prepared *key_new_prepared(cs_mlkem_key *key)
{
    cs_mlkem_prepared_free(key->prep[CS_KEY_PREP_PUB]);
    key->prep[CS_KEY_PREP_PUB] = cs_mlkem_prepared_new(key->hooks->ps);
    return key->prep[CS_KEY_PREP_PUB];
}

/* Runs KeyGen_internal(d, z) from key->seed on the dispatched kernel,
 * filling the prepared key from its matrix and H(ek), and counts it; the
 * key then holds dk and ek, and the seed unless the configuration says
 * ml-kem.retain_seed=no under a 3.5 or 3.6 core (which drop it here; 4.0
 * keeps it and its encoder leaves it out). */
static int from_seed(cs_mlkem_key *key)
{
    int ps = key->hooks->ps;
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(ps);
    const uint8_t *d = key->seed, *z = key->seed + CS_MLKEM_SYM_BYTES;
    cs_mlkem_prepared *pr = key_new_prepared(key);
    cs_stats_count(CS_OP_MLKEM_KEYGEN, impl->name, (unsigned)ps);
    if ((pr ? impl->keygen_prepared(ps, key->pub, key->priv, d, z, pr)
            : impl->keygen(ps, key->pub, key->priv, d, z)) != 0)
        return 0;
    cs_key_seed_derived(key, CS_CONF_KEM_RETAIN_SEED);
    return 1;
}

/* Rank k of a parameter set (2, 3, 4). */
static int rank_of(int ps)
{
    return ps / 256;
}

/* 1 when every 12-bit coefficient of the k encoded polynomials at in is
 * below q (ByteDecode_12 without reduction), computed without a branch on
 * the (secret, for s) data; only the verdict is revealed. */
static int coeffs_below_q(const uint8_t *in, int k)
{
    uint32_t bad = 0;
    for (size_t i = 0; i < (size_t)k * 384; i += 3) {
        uint32_t c0 = in[i] | ((uint32_t)(in[i + 1] & 0x0f) << 8);
        uint32_t c1 = (in[i + 1] >> 4) | ((uint32_t)in[i + 2] << 4);
        bad |= (3328u - c0) | (3328u - c1); /* top bit set when c > 3328 */
    }
    return (bad >> 31) == 0;
}

/* Sets a public-only key from ek after the FIPS 203 7.2 modulus check,
 * raising OpenSSL's error ("invalid public 't' vector") when it fails. */
static int key_from_ek(cs_mlkem_key *key, const uint8_t *ek)
{
    if (!cs_mlkem_check_ek(key->hooks->ps, ek)) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s invalid public 't' vector",
                 cs_mlkem_alg_name(key->hooks->ps));
        return 0;
    }
    memcpy(key->pub, ek, cs_mlkem_ek_bytes(key->hooks->ps));
    cs_mlkem_prepared *pr = key_new_prepared(key);
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(key->hooks->ps);
    if (pr && impl->prepare(key->hooks->ps, pr, key->pub) != 0) {
        cs_mlkem_prepared_free(pr);
        key->prep[CS_KEY_PREP_PUB] = NULL;
    }
    key->has_pub = 1;
    return 1;
}

/* Sets the key from dk as OpenSSL parses one: s decodes below q, the
 * embedded ek passes the modulus check, H(ek) matches (FIPS 203 7.3), each
 * refusal with OpenSSL's error. */
static int key_from_dk(cs_mlkem_key *key, const uint8_t *dk)
{
    const char *alg = cs_mlkem_alg_name(key->hooks->ps);
    int k = rank_of(key->hooks->ps);
    if (!coeffs_below_q(dk, k)) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s invalid private 's' vector", alg);
        return 0;
    }
    if (!key_from_ek(key, dk + (size_t)k * 384))
        return 0;
    /* the prepared key has H(ek) already */
    const uint8_t *dk_h = dk + (size_t)k * 384 + cs_mlkem_ek_bytes(key->hooks->ps);
    int hash_ok = key->prep[CS_KEY_PREP_PUB]
                      ? !memcmp(cs_mlkem_prepared_h(key->prep[CS_KEY_PREP_PUB]), dk_h, 32)
                            : cs_mlkem_check_dk(cs_dispatch_keccak(), key->hooks->ps, dk);
    if (!hash_ok) {
        key->has_pub = 0;
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s public key hash mismatch", alg);
        return 0;
    }
    memcpy(key->priv, dk, cs_mlkem_dk_bytes(key->hooks->ps));
    key->has_priv = 1;
    return 1;
}

/* OpenSSL's pairwise test of a key pair: encapsulate to ek with fresh
 * randomness (or, for fixed, 32 bytes of 0x55), decapsulate with dk, the
 * secrets must agree; a failure raises "public part of ... private key
 * fails to match private". */
static int pairwise_test(cs_mlkem_key *key, int fixed)
{
    uint8_t m[32], ss1[32], ss2[32], ct[CS_MLKEM_MAX_CT_BYTES];
    if (fixed)
        memset(m, 0x55, sizeof m);
    int ok = (fixed || cs_prov_random(key->prov, m, sizeof m)) &&
             cs_mlkem_key_encaps(key, ct, ss1, m) && cs_mlkem_key_decaps(key, ss2, ct) &&
             cs_prov_ct_equal(ss1, ss2, sizeof ss1);
    cs_prov_cleanse(m, sizeof m);
    cs_prov_cleanse(ss1, sizeof ss1);
    cs_prov_cleanse(ss2, sizeof ss2);
    if (!ok)
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "public part of %s private key fails to match private",
                 cs_mlkem_alg_name(key->hooks->ps));
    return ok;
}

/* The pairwise test an import runs, as ml-kem.import_pct_type says:
 * random (the default), fixed, or none (anything else). */
static int import_pairwise_test(cs_mlkem_key *key)
{
    int conf = cs_prov_conf(key->prov);
    if (conf & CS_CONF_KEM_PCT_RANDOM)
        return pairwise_test(key, 0);
    if (conf & CS_CONF_KEM_PCT_FIXED)
        return pairwise_test(key, 1);
    return 1;
}

/* OpenSSL's comparison: equal public keys when both have one; otherwise,
 * as stock computes it, 1 exactly when one of the two has a public key. */
static int match(const cs_mlkem_key *a, const cs_mlkem_key *b, int selection)
{
    if (!(selection & OSSL_KEYMGMT_SELECT_KEYPAIR))
        return 1;
    if (a->has_pub && b->has_pub)
        return a->hooks == b->hooks && memcmp(a->pub, b->pub, a->hooks->pub_bytes) == 0;
    return a->has_pub ^ b->has_pub;
}

/* Reads one octet part for import (absent: len 0); a present part must be
 * want bytes or empty, else reason is raised. */
static int import_part(const cs_prov *prov, const OSSL_PARAM *params, const char *name,
                       size_t want, int reason, const uint8_t **data, size_t *len)
{
    const OSSL_PARAM *p = cs_param_locate(params, name);
    const void *d = NULL;
    *data = NULL;
    *len = 0;
    if (!p)
        return 1;
    if (!cs_param_get_octets_ptr(prov, p, &d, len))
        return 0;
    *data = d;
    if (*len != 0 && *len != want) {
        CS_RAISE(prov, CS_LIB_PROV, reason, NULL);
        return 0;
    }
    return 1;
}

/* Sets an empty key from seed, dk and/or ek as OpenSSL's fromdata does, in
 * its order: sizes, something given, a given ek must be the one inside a
 * given dk; then the seed when there is no dk or ml-kem.prefer_seed is yes
 * (the default: a dk beside it must carry the seed's z, then be, whole,
 * the dk the seed gives), else the dk (the seed ignored), else the ek. */
static int key_fromdata(cs_mlkem_key *key, const OSSL_PARAM params[], int include_private)
{
    const cs_prov *prov = key->prov;
    const char *alg = cs_mlkem_alg_name(key->hooks->ps);
    const uint8_t *seed = NULL, *dk = NULL, *ek = NULL;
    size_t seedn = 0, dkn = 0, ekn = 0;
    size_t ekb = cs_mlkem_ek_bytes(key->hooks->ps), dkb = cs_mlkem_dk_bytes(key->hooks->ps);
    int k = rank_of(key->hooks->ps);

    if (key->has_pub)
        return 0; /* keys with material are immutable */
    if (include_private &&
        (!import_part(prov, params, CS_P_SEED, CS_MLKEM_SEED_BYTES,
                      CS_PROV_R_INVALID_SEED_LENGTH, &seed, &seedn) ||
         !import_part(prov, params, CS_P_PRIV, dkb, CS_PROV_R_INVALID_KEY_LENGTH, &dk, &dkn)))
        return 0;
    if (!import_part(prov, params, CS_P_PUB, ekb, CS_PROV_R_INVALID_KEY_LENGTH, &ek, &ekn))
        return 0;
    if (seedn == 0 && dkn == 0 && ekn == 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    if (ekn != 0 && dkn != 0 && memcmp(ek, dk + (size_t)k * 384, ekb) != 0) {
        CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                 "explicit %s public key does not match private", alg);
        return 0;
    }
    if ((seedn != 0 || dkn != 0) && !cs_key_secret(key))
        return 0;
    if (seedn != 0 && (dkn == 0 || (cs_prov_conf(prov) & CS_CONF_KEM_PREFER_SEED))) {
        /* z is the seed's second half and dk's last 32 bytes */
        if (dkn != 0 && !cs_prov_ct_equal(seed + 32, dk + dkb - 32, 32)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "private %s key implicit rejection secret does not match seed", alg);
            return 0;
        }
        memcpy(key->seed, seed, CS_MLKEM_SEED_BYTES);
        if (!from_seed(key))
            return 0;
        /* the whole dk, s included (compared without a branch on it) */
        if (dkn != 0 && !cs_prov_ct_equal(key->priv, dk, dkb)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "explicit %s private key does not match seed", alg);
            return 0; /* the skeleton empties the key */
        }
        return 1;
    }
    if (dkn != 0)
        return key_from_dk(key, dk);
    return key_from_ek(key, ek);
}

/* Sets an octet-string parameter as OpenSSL's ML-KEM get_params does:
 * another type or a short buffer fails without an error. */
static int put_octets(OSSL_PARAM *p, const void *v, size_t len)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return 0;
    memcpy(p->data, v, len);
    return 1;
}

/* DER of the AlgorithmIdentifier of HKDF-SHA256 (id-alg-hkdf-with-sha256,
 * RFC 8619), what OpenSSL 3.6 reports as an ML-KEM key's KEMRecipientInfo
 * KDF. */
static const uint8_t kemri_kdf_der[] = {0x30, 0x0d, 0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86,
                                        0xf7, 0x0d, 0x01, 0x09, 0x10, 0x03, 0x1c};
#define CS_CMS_RI_TYPE_KEM 5 /* CMS_RECIPINFO_KEM */

/* The family's get_params answers beyond the skeleton's (bits, security
 * bits, max-size, security category from 3.6): ri-type and kemri-kdf-alg
 * from 3.6, and the key material with stock's ML-KEM semantics (a wrong
 * type or a short buffer fails without an error). */
static int get_params(cs_mlkem_key *key, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    int ps = key->hooks->ps;
    if (key->prov->core_version >= 306) {
        if ((p = cs_param_locate_mut(params, CS_P_RI_TYPE)) &&
            !cs_param_set_int(key->prov, p, CS_CMS_RI_TYPE_KEM))
            return 0;
        if ((p = cs_param_locate_mut(params, CS_P_KEMRI_KDF_ALG)) &&
            !put_octets(p, kemri_kdf_der, sizeof kemri_kdf_der))
            return 0;
    }
    if (key->has_pub) {
        if ((p = cs_param_locate_mut(params, CS_P_PUB)) &&
            !put_octets(p, key->pub, cs_mlkem_ek_bytes(ps)))
            return 0;
        if ((p = cs_param_locate_mut(params, CS_P_ENCODED_PUB_KEY)) &&
            !put_octets(p, key->pub, cs_mlkem_ek_bytes(ps)))
            return 0;
    }
    if (key->has_priv && (p = cs_param_locate_mut(params, CS_P_PRIV)) &&
        !put_octets(p, key->priv, cs_mlkem_dk_bytes(ps)))
        return 0;
    if (key->has_seed && (p = cs_param_locate_mut(params, CS_P_SEED)) &&
        !put_octets(p, key->seed, CS_MLKEM_SEED_BYTES))
        return 0;
    return 1;
}

/* The parameters get_params answers: 3.6 adds the security category and
 * the CMS recipient-info ones. */
#define P_ENCODED_PUB OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0)
static const OSSL_PARAM gettable_35[] = {
    CS_KEY_P_SIZES, CS_KEY_P_SEED_PRIV_PUB, P_ENCODED_PUB, OSSL_PARAM_END,
};
static const OSSL_PARAM gettable_36[] = {
    CS_KEY_P_SIZES, CS_KEY_P_SEC_CATEGORY, CS_KEY_P_SEED_PRIV_PUB, P_ENCODED_PUB,
    OSSL_PARAM_int(CS_P_RI_TYPE, NULL), OSSL_PARAM_octet_string(CS_P_KEMRI_KDF_ALG, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters set_params takes: the encoded public key (TLS peers). */
static const OSSL_PARAM settable[] = {P_ENCODED_PUB, OSSL_PARAM_END};

/* Sets an empty key's public key from encoded-pub-key (what
 * EVP_PKEY_set1_encoded_public_key does for a TLS peer's share), with
 * stock's errors: a wrong type or length is an invalid key, a key that
 * already has one cannot be mutated. */
static int set_params(cs_mlkem_key *key, const OSSL_PARAM params[])
{
    const void *ek = NULL;
    size_t len = 0;
    const OSSL_PARAM *p = cs_param_locate(params, CS_P_ENCODED_PUB_KEY);
    if (!p)
        return 1;
    if (!cs_param_get_octets_ptr(key->prov, p, &ek, &len) || len != cs_mlkem_ek_bytes(key->hooks->ps)) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, NULL);
        return 0;
    }
    if (key->has_pub) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_OPERATION_NOT_SUPPORTED_FOR_THIS_KEYTYPE,
                 "ML-KEM keys cannot be mutated");
        return 0;
    }
    return key_from_ek(key, ek);
}

/* Reads generation parameters as OpenSSL does: properties must be a UTF-8
 * string; a seed must be exactly 64 bytes (else "invalid seed length"). */
static int gen_set_params(cs_key_gen *g, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    size_t len = 0;
    /* gen_init's selection must include domain parameters or the private
     * key, as OpenSSL requires */
    if ((g->selection & (OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) == 0)
        return 0;
    if ((p = cs_param_locate(params, CS_P_PROPERTIES)) && p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    if ((p = cs_param_locate(params, CS_P_SEED))) {
        if (cs_param_get_octets(g->prov, p, g->seed, sizeof g->seed, &len) &&
            len == CS_MLKEM_SEED_BYTES) {
            g->has_seed = 1;
            return 1;
        }
        CS_RAISE(g->prov, CS_LIB_PROV, CS_PROV_R_INVALID_SEED_LENGTH, NULL);
        g->has_seed = 0;
        return 0;
    }
    return 1;
}

/* The parameters generation accepts: 3.6 adds properties. */
static const OSSL_PARAM gen_settable_35[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_END,
};

/* ek is inside dk: the skeleton's pub_from_priv. */
static int pub_from_priv(cs_mlkem_key *key)
{
    memcpy(key->pub, key->priv + 384 * (size_t)rank_of(key->hooks->ps), key->hooks->pub_bytes);
    key->has_pub = 1;
    return 1;
}

/* The import hook: fromdata as OpenSSL's; key material with a private
 * part must also pass the pairwise test ml-kem.import_pct_type asks for
 * (stock's import check); the skeleton empties the key on failure. */
static int import(cs_mlkem_key *key, const cs_key_parts *parts, int include_private)
{
    return key_fromdata(key, parts->params, include_private) &&
           (!include_private || !key->has_priv || import_pairwise_test(key));
}

/* A key-pair validation: stock's pairwise test with fresh randomness (it
 * may fill the key's prepared slot, the one part a shared key may gain). */
static int pairwise(const cs_mlkem_key *key)
{
    return pairwise_test((cs_mlkem_key *)key, 0);
}

/* Export of a key without material fails with "missing key". */
static int export_refused(const cs_mlkem_key *key, int selection)
{
    if (key->has_pub)
        return 0;
    CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
    return 1;
}

/* Under ml-kem.prefer_seed=no the default provider's encoders, importing
 * our export, would take the dk and drop the seed its own keys keep: a key
 * holding its seed then exports the seed without the dk. */
static int export_seed_only(const cs_mlkem_key *key)
{
    return !(cs_prov_conf(key->prov) & CS_CONF_KEM_PREFER_SEED);
}

/* Generates a key pair from the given seed (used once) or 64 fresh bytes;
 * a public-key selection alone is refused (a selection without key parts
 * gives an empty key: the skeleton, CS_KEY_GEN_EMPTY). */
static int gen(cs_mlkem_key *key, const cs_key_gen *cg)
{
    cs_key_gen *g = (cs_key_gen *)cg; /* the seed is single-use: wiped here */
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
        return 0;
    if (g->has_seed)
        memcpy(key->seed, g->seed, CS_MLKEM_SEED_BYTES);
    else if (!cs_prov_random(g->prov, key->seed, CS_MLKEM_SEED_BYTES))
        return 0;
    cs_prov_cleanse(g->seed, sizeof g->seed);
    g->has_seed = 0;
    return from_seed(key);
}

/* One parameter set's hooks: bits is the parameter set, max-size the
 * ciphertext bytes, security category 1, 3, 5 from 3.6 on. */
#define MLKEM_HOOKS(PS, EK, DK, SEC, CAT, CT)                                             \
    static const cs_key_hooks mlkem##PS##_hooks = {                                      \
        .name = "ML-KEM-" #PS, .ps = PS, .pub_bytes = EK, .priv_bytes = DK,             \
        .seed_bytes = CS_MLKEM_SEED_BYTES, .bits = PS, .sec_bits = SEC,                 \
        .sec_category = CAT, .max_size = CT, .sec_category_since = 306,                 \
        .flags = CS_KEY_GEN_EMPTY | CS_KEY_P_OWN_MATERIAL | CS_KEY_DUP_PRIV_WITH_PUB |   \
                 CS_KEY_RAW_PARTS | CS_KEY_EXPORT_PRIV_FIRST,                           \
        .import = import, .from_seed = from_seed, .pub_from_priv = pub_from_priv,       \
        .gen = gen, .pairwise = pairwise, .match = match,                              \
        .export_refused = export_refused, .export_seed_only = export_seed_only,        \
        .get_params = get_params,                                                     \
        .gettable = CS_KEY_PARAMS_SINCE(gettable_35, 306, gettable_36),                 \
        .set_params = set_params, .settable = CS_KEY_PARAMS(settable),                  \
        .gen_set_params = gen_set_params,                                             \
        .gen_settable = CS_KEY_PARAMS_SINCE(gen_settable_35, 306, cs_key_gen_seed_properties), \
        .prepare = prepare, .unprepare = unprepare,                                       \
        .key_types = cs_key_types_seed_priv_pub,                                          \
    };                                                                                    \
    CS_KEYMGMT_DISPATCH(cs_mlkem##PS##_keymgmt, mlkem##PS##_hooks);

MLKEM_HOOKS(512, 800, 1632, 128, 1, 768)
MLKEM_HOOKS(768, 1184, 2400, 192, 3, 1088)
MLKEM_HOOKS(1024, 1568, 3168, 256, 5, 1568)
