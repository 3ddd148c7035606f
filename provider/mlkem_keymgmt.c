/* ML-KEM key management: generation (from the seed d || z or fresh
 * randomness), import and export of seed / dk / ek under OpenSSL 3.5's
 * parameter names, the FIPS 203 key checks with stock's outcome and errors,
 * the encoded public key TLS sets and gets, has, match, validate, dup. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dispatch_mlkem.h"
#include "runtime/stats.h"
#include "mlkem_key.h"

/* Fields of a generation request (in secret memory: it may hold the seed). */
typedef struct gen_ctx {
    cs_prov *prov;
    int ps;
    int selection;
    int has_seed;
    uint8_t seed[CS_MLKEM_SEED_BYTES];
} gen_ctx;

const char *cs_mlkem_alg_name(int ps)
{
    switch (ps) {
    case 512: return "ML-KEM-512";
    case 768: return "ML-KEM-768";
    case 1024: return "ML-KEM-1024";
    default: return NULL;
    }
}

/* Rank k of a parameter set (2, 3, 4). */
static int rank_of(int ps)
{
    return ps / 256;
}

/* Bytes of a key's secret block. */
static size_t secret_bytes(int ps)
{
    return CS_MLKEM_SEED_BYTES + cs_mlkem_dk_bytes(ps);
}

/* The key's prepared data if impl made it; NULL when the dispatcher has
 * changed its pick since (another layout: the unprepared entry serves). */
static const cs_mlkem_prepared *prepared_for(const cs_mlkem_key *key, const cs_mlkem_impl *impl)
{
    return key->prep && cs_mlkem_prepared_impl(key->prep) == impl ? key->prep : NULL;
}

int cs_mlkem_key_encaps(const cs_mlkem_key *key, uint8_t *ct, uint8_t ss[32], const uint8_t m[32])
{
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(key->ps);
    const cs_mlkem_prepared *pr = prepared_for(key, impl);
    cs_stats_count(CS_OP_MLKEM_ENCAPS, impl->name, (unsigned)key->ps);
    if (pr)
        return impl->encaps_prepared(pr, ct, ss, m) == 0;
    return impl->encaps(key->ps, ct, ss, key->ek, m) == 0;
}

int cs_mlkem_key_decaps(const cs_mlkem_key *key, uint8_t ss[32], const uint8_t *ct)
{
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(key->ps);
    const cs_mlkem_prepared *pr = prepared_for(key, impl);
    cs_stats_count(CS_OP_MLKEM_DECAPS, impl->name, (unsigned)key->ps);
    if (pr)
        return impl->decaps_prepared(pr, ss, ct, key->dk) == 0;
    return impl->decaps(key->ps, ss, ct, key->dk) == 0;
}

/* Allocates an empty key of parameter set ps. */
static cs_mlkem_key *key_new(cs_prov *prov, int ps)
{
    /* Only the header is zeroed: ek is read once has_pub says it is set. */
    cs_mlkem_key *key = malloc(sizeof(*key));
    if (key) {
        memset(key, 0, offsetof(cs_mlkem_key, ek));
        key->prov = prov;
        key->ps = ps;
    }
    return key;
}

/* Gives the key its secret block (once): 1, or 0 if no memory. */
static int key_secret(cs_mlkem_key *key)
{
    if (!key->secret) {
        key->secret = cs_prov_secret_alloc(key->prov, secret_bytes(key->ps));
        if (!key->secret)
            return 0;
        key->seed = key->secret;
        key->dk = key->secret + CS_MLKEM_SEED_BYTES;
    }
    return 1;
}

/* Drops the key's material (a failed import leaves the key empty, as
 * OpenSSL's reset does). */
static void key_reset(cs_mlkem_key *key)
{
    key->has_pub = key->has_priv = key->has_seed = 0;
    cs_mlkem_prepared_free(key->prep); /* public: nothing to wipe */
    key->prep = NULL;
    if (key->secret)
        cs_prov_cleanse(key->secret, secret_bytes(key->ps));
}

/* Frees a key, wiping its secrets. */
static void km_free(void *vkey)
{
    cs_mlkem_key *key = vkey;
    if (!key)
        return;
    cs_prov_secret_free(key->prov, key->secret, secret_bytes(key->ps));
    cs_mlkem_prepared_free(key->prep);
    free(key);
}

/* Gives the key an empty prepared block (dropping an old one); without
 * memory the key simply stays unprepared. */
static cs_mlkem_prepared *key_new_prepared(cs_mlkem_key *key)
{
    cs_mlkem_prepared_free(key->prep);
    key->prep = cs_mlkem_prepared_new(key->ps);
    return key->prep;
}

/* Runs KeyGen_internal(d, z) from key->seed on the dispatched kernel,
 * filling the prepared key from its matrix and H(ek), and counts it; the
 * key then holds dk and ek, and the seed unless the configuration says
 * ml-kem.retain_seed=no under a 3.5 or 3.6 core (which drop it here; 4.0
 * keeps it and its encoder leaves it out). */
static int key_from_seed(cs_mlkem_key *key)
{
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(key->ps);
    const uint8_t *d = key->seed, *z = key->seed + CS_MLKEM_SYM_BYTES;
    cs_mlkem_prepared *pr = key_new_prepared(key);
    cs_stats_count(CS_OP_MLKEM_KEYGEN, impl->name, (unsigned)key->ps);
    if ((pr ? impl->keygen_prepared(key->ps, key->ek, key->dk, d, z, pr)
            : impl->keygen(key->ps, key->ek, key->dk, d, z)) != 0)
        return 0;
    key->has_seed = key->has_priv = key->has_pub = 1;
    if (key->prov->core_version < 400 && !(cs_prov_conf(key->prov) & CS_CONF_KEM_RETAIN_SEED)) {
        cs_prov_cleanse(key->seed, CS_MLKEM_SEED_BYTES);
        key->has_seed = 0;
    }
    return 1;
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
    if (!cs_mlkem_check_ek(key->ps, ek)) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s invalid public 't' vector",
                 cs_mlkem_alg_name(key->ps));
        return 0;
    }
    memcpy(key->ek, ek, cs_mlkem_ek_bytes(key->ps));
    cs_mlkem_prepared *pr = key_new_prepared(key);
    const cs_mlkem_impl *impl = cs_dispatch_mlkem(key->ps);
    if (pr && impl->prepare(key->ps, pr, key->ek) != 0) {
        cs_mlkem_prepared_free(pr);
        key->prep = NULL;
    }
    key->has_pub = 1;
    return 1;
}

/* Sets the key from dk as OpenSSL parses one: s decodes below q, the
 * embedded ek passes the modulus check, H(ek) matches (FIPS 203 7.3), each
 * refusal with OpenSSL's error. */
static int key_from_dk(cs_mlkem_key *key, const uint8_t *dk)
{
    const char *alg = cs_mlkem_alg_name(key->ps);
    int k = rank_of(key->ps);
    if (!coeffs_below_q(dk, k)) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s invalid private 's' vector", alg);
        return 0;
    }
    if (!key_from_ek(key, dk + (size_t)k * 384))
        return 0;
    /* the prepared key has H(ek) already */
    const uint8_t *dk_h = dk + (size_t)k * 384 + cs_mlkem_ek_bytes(key->ps);
    int hash_ok = key->prep ? !memcmp(cs_mlkem_prepared_h(key->prep), dk_h, 32)
                            : cs_mlkem_check_dk(key->ps, dk);
    if (!hash_ok) {
        key->has_pub = 0;
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY, "%s public key hash mismatch", alg);
        return 0;
    }
    memcpy(key->dk, dk, cs_mlkem_dk_bytes(key->ps));
    key->has_priv = 1;
    return 1;
}

/* OpenSSL's pairwise test of a key pair: encapsulate to ek with fresh
 * randomness (or, for fixed, 32 bytes of 0x55), decapsulate with dk, the
 * secrets must agree; a failure raises "public part of ... private key
 * fails to match private". */
static int pairwise_test(const cs_mlkem_key *key, int fixed)
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
                 cs_mlkem_alg_name(key->ps));
    return ok;
}

/* The pairwise test an import runs, as ml-kem.import_pct_type says:
 * random (the default), fixed, or none (anything else). */
static int import_pairwise_test(const cs_mlkem_key *key)
{
    int conf = cs_prov_conf(key->prov);
    if (conf & CS_CONF_KEM_PCT_RANDOM)
        return pairwise_test(key, 0);
    if (conf & CS_CONF_KEM_PCT_FIXED)
        return pairwise_test(key, 1);
    return 1;
}

/* 1 if the key holds what selection asks for (OpenSSL's has()). */
static int km_has(const void *vkey, int selection)
{
    const cs_mlkem_key *key = vkey;
    if (!key)
        return 0;
    switch (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
    case 0: return 1;
    case OSSL_KEYMGMT_SELECT_PUBLIC_KEY: return key->has_pub;
    default: return key->has_priv;
    }
}

/* OpenSSL's comparison: equal public keys when both have one; otherwise,
 * as stock computes it, 1 exactly when one of the two has a public key. */
static int km_match(const void *v1, const void *v2, int selection)
{
    const cs_mlkem_key *a = v1, *b = v2;
    if (!(selection & OSSL_KEYMGMT_SELECT_KEYPAIR))
        return 1;
    if (a->has_pub && b->has_pub)
        return a->ps == b->ps && memcmp(a->ek, b->ek, cs_mlkem_ek_bytes(a->ps)) == 0;
    return a->has_pub ^ b->has_pub;
}

/* The key must hold what selection names; a key-pair selection also runs
 * the pairwise test. */
static int km_validate(const void *vkey, int selection, int checktype)
{
    const cs_mlkem_key *key = vkey;
    if (!km_has(key, selection))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR &&
        key->has_priv)
        return pairwise_test(key, 0);
    return 1;
}

/* Exports seed (if kept) and dk for a private selection, ek for a public
 * one, as OpenSSL does; a key without material fails with "missing key".
 * One exception, so that the default provider's encoders, which import
 * what this exports, write for our keys what they write for its own:
 * under ml-kem.prefer_seed=no its import would take a dk beside the seed
 * and drop the seed (its own keys keep theirs), so a key holding its seed
 * exports the seed without the dk there. */
static int km_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    cs_mlkem_key *key = vkey;
    OSSL_PARAM params[4];
    int n = 0;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    if (!key->has_pub) {
        CS_RAISE(key->prov, CS_LIB_PROV, CS_PROV_R_MISSING_KEY, NULL);
        return 0;
    }
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        int seed_only = key->has_seed && !(cs_prov_conf(key->prov) & CS_CONF_KEM_PREFER_SEED);
        if (key->has_seed)
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_SEED, key->seed,
                                                              CS_MLKEM_SEED_BYTES);
        if (key->has_priv && !seed_only)
            params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PRIV, key->dk,
                                                              cs_mlkem_dk_bytes(key->ps));
    }
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
        params[n++] = (OSSL_PARAM)OSSL_PARAM_octet_string(CS_P_PUB, key->ek,
                                                          cs_mlkem_ek_bytes(key->ps));
    params[n] = (OSSL_PARAM)OSSL_PARAM_END;
    return cb(params, cbarg);
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
    const char *alg = cs_mlkem_alg_name(key->ps);
    const uint8_t *seed = NULL, *dk = NULL, *ek = NULL;
    size_t seedn = 0, dkn = 0, ekn = 0;
    size_t ekb = cs_mlkem_ek_bytes(key->ps), dkb = cs_mlkem_dk_bytes(key->ps);
    int k = rank_of(key->ps);

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
    if ((seedn != 0 || dkn != 0) && !key_secret(key))
        return 0;
    if (seedn != 0 && (dkn == 0 || (cs_prov_conf(prov) & CS_CONF_KEM_PREFER_SEED))) {
        /* z is the seed's second half and dk's last 32 bytes */
        if (dkn != 0 && !cs_prov_ct_equal(seed + 32, dk + dkb - 32, 32)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "private %s key implicit rejection secret does not match seed", alg);
            return 0;
        }
        memcpy(key->seed, seed, CS_MLKEM_SEED_BYTES);
        if (!key_from_seed(key))
            return 0;
        /* the whole dk, s included (compared without a branch on it) */
        if (dkn != 0 && !cs_prov_ct_equal(key->dk, dk, dkb)) {
            CS_RAISE(prov, CS_LIB_PROV, CS_PROV_R_INVALID_KEY,
                     "explicit %s private key does not match seed", alg);
            key_reset(key);
            return 0;
        }
        return 1;
    }
    if (dkn != 0)
        return key_from_dk(key, dk);
    return key_from_ek(key, ek);
}

/* Imports as OpenSSL does; key material with a private part must also pass
 * the pairwise test ml-kem.import_pct_type asks for (stock's import check),
 * else the key is left empty. */
static int km_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    cs_mlkem_key *key = vkey;
    if (!key || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 0;
    int include_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    int ok = key_fromdata(key, params, include_private);
    if (ok && include_private && key->has_priv && !import_pairwise_test(key))
        ok = 0;
    if (!ok)
        key_reset(key);
    return ok;
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

/* bits (the parameter set), security bits, max-size (ciphertext bytes), the
 * key material; from 3.6 also security category, ri-type, kemri-kdf-alg. */
static int km_get_params(void *vkey, OSSL_PARAM params[])
{
    cs_mlkem_key *key = vkey;
    const cs_prov *prov = key->prov;
    OSSL_PARAM *p;
    int secbits = key->ps == 512 ? 128 : key->ps == 768 ? 192 : 256;
    if ((p = cs_param_locate_mut(params, CS_P_BITS)) && !cs_param_set_int(prov, p, key->ps))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_SECURITY_BITS)) &&
        !cs_param_set_int(prov, p, secbits))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_MAX_SIZE)) &&
        !cs_param_set_int(prov, p, (int64_t)cs_mlkem_ct_bytes(key->ps)))
        return 0;
    if (prov->core_version >= 306) {
        if ((p = cs_param_locate_mut(params, CS_P_SECURITY_CATEGORY)) &&
            !cs_param_set_int(prov, p, key->ps == 512 ? 1 : key->ps == 768 ? 3 : 5))
            return 0;
        if ((p = cs_param_locate_mut(params, CS_P_RI_TYPE)) &&
            !cs_param_set_int(prov, p, CS_CMS_RI_TYPE_KEM))
            return 0;
        if ((p = cs_param_locate_mut(params, CS_P_KEMRI_KDF_ALG)) &&
            !put_octets(p, kemri_kdf_der, sizeof kemri_kdf_der))
            return 0;
    }
    if (key->has_pub) {
        if ((p = cs_param_locate_mut(params, CS_P_PUB)) &&
            !put_octets(p, key->ek, cs_mlkem_ek_bytes(key->ps)))
            return 0;
        if ((p = cs_param_locate_mut(params, CS_P_ENCODED_PUB_KEY)) &&
            !put_octets(p, key->ek, cs_mlkem_ek_bytes(key->ps)))
            return 0;
    }
    if (key->has_priv && (p = cs_param_locate_mut(params, CS_P_PRIV)) &&
        !put_octets(p, key->dk, cs_mlkem_dk_bytes(key->ps)))
        return 0;
    if (key->has_seed && (p = cs_param_locate_mut(params, CS_P_SEED)) &&
        !put_octets(p, key->seed, CS_MLKEM_SEED_BYTES))
        return 0;
    return 1;
}

static const OSSL_PARAM gettable_35[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    OSSL_PARAM_int(CS_P_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM gettable_36[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    OSSL_PARAM_int(CS_P_MAX_SIZE, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_CATEGORY, NULL),
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0),
    OSSL_PARAM_int(CS_P_RI_TYPE, NULL),
    OSSL_PARAM_octet_string(CS_P_KEMRI_KDF_ALG, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters get_params answers, as the core's release lists them. */
static const OSSL_PARAM *km_gettable_params(void *provctx)
{
    const cs_prov *prov = provctx;
    return prov->core_version >= 306 ? gettable_36 : gettable_35;
}

static const OSSL_PARAM settable[] = {
    OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters set_params takes: the encoded public key (TLS peers). */
static const OSSL_PARAM *km_settable_params(void *provctx)
{
    return settable;
}

/* Sets an empty key's public key from encoded-pub-key (what
 * EVP_PKEY_set1_encoded_public_key does for a TLS peer's share), with
 * stock's errors: a wrong type or length is an invalid key, a key that
 * already has one cannot be mutated. */
static int km_set_params(void *vkey, const OSSL_PARAM params[])
{
    cs_mlkem_key *key = vkey;
    const void *ek = NULL;
    size_t len = 0;
    const OSSL_PARAM *p = cs_param_locate(params, CS_P_ENCODED_PUB_KEY);
    if (!p)
        return 1;
    if (!cs_param_get_octets_ptr(key->prov, p, &ek, &len) || len != cs_mlkem_ek_bytes(key->ps)) {
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

/* Copies the parts of a key that selection names (a private selection
 * copies the whole key pair, seed included). */
static void *km_dup(const void *vsrc, int selection)
{
    const cs_mlkem_key *src = vsrc;
    cs_mlkem_key *key = src ? key_new(src->prov, src->ps) : NULL;
    if (!key)
        return NULL;
    if (!src->has_pub)
        selection = 0;
    else if (!src->has_priv)
        selection &= ~OSSL_KEYMGMT_SELECT_PRIVATE_KEY;
    if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
        memcpy(key->ek, src->ek, cs_mlkem_ek_bytes(src->ps));
        if (src->prep && !(key->prep = cs_mlkem_prepared_dup(src->prep))) {
            km_free(key);
            return NULL;
        }
        key->has_pub = 1;
    }
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        if (!key_secret(key)) {
            km_free(key);
            return NULL;
        }
        memcpy(key->secret, src->secret, secret_bytes(src->ps));
        key->has_priv = 1;
        key->has_seed = src->has_seed;
    }
    return key;
}

/* Reads generation parameters as OpenSSL does: properties must be a UTF-8
 * string; a seed must be exactly 64 bytes (else "invalid seed length"). */
static int gen_set_params(void *vgen, const OSSL_PARAM params[])
{
    gen_ctx *g = vgen;
    const OSSL_PARAM *p;
    size_t len = 0;
    if (!g)
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

static const OSSL_PARAM gen_settable_35[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM gen_settable_36[] = {
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

/* The parameters generation accepts, as the core's release lists them. */
static const OSSL_PARAM *gen_settable_params(void *vgen, void *provctx)
{
    const cs_prov *prov = provctx;
    return prov && prov->core_version >= 306 ? gen_settable_36 : gen_settable_35;
}

/* Frees a generation context, wiping a given seed. */
static void gen_cleanup(void *vgen)
{
    gen_ctx *g = vgen;
    if (g)
        cs_prov_secret_free(g->prov, g, sizeof *g);
}

/* Generates a key pair from the given seed (used once) or 64 fresh bytes;
 * a selection without key parts gives an empty key (TLS's paramgen). */
static void *gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
    gen_ctx *g = vgen;
    if (!g || (g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
        return NULL;
    cs_mlkem_key *key = key_new(g->prov, g->ps);
    if (!key)
        return NULL;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return key;
    if (!key_secret(key))
        goto err;
    if (g->has_seed)
        memcpy(key->seed, g->seed, CS_MLKEM_SEED_BYTES);
    else if (!cs_prov_random(g->prov, key->seed, CS_MLKEM_SEED_BYTES))
        goto err;
    cs_prov_cleanse(g->seed, sizeof g->seed);
    g->has_seed = 0;
    if (!key_from_seed(key))
        goto err;
    return key;
err:
    km_free(key);
    return NULL;
}

/* A generation context for selection (which must include domain
 * parameters or the private key, as OpenSSL requires). */
static void *gen_init(void *provctx, int ps, int selection, const OSSL_PARAM params[])
{
    if ((selection & (OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) == 0)
        return NULL;
    gen_ctx *g = cs_prov_secret_alloc(provctx, sizeof(*g));
    if (!g)
        return NULL;
    g->prov = provctx;
    g->ps = ps;
    g->selection = selection;
    if (!gen_set_params(g, params)) {
        gen_cleanup(g);
        return NULL;
    }
    return g;
}

#define KEYMGMT(PS)                                                                   \
    static void *km_new_##PS(void *provctx) { return key_new(provctx, PS); }         \
    static void *gen_init_##PS(void *provctx, int selection, const OSSL_PARAM p[])   \
    {                                                                                 \
        return gen_init(provctx, PS, selection, p);                                   \
    }                                                                                 \
    const OSSL_DISPATCH cs_mlkem##PS##_keymgmt[] = {                                  \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new_##PS},                         \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free},                            \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params},                \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable_params},      \
        {OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))km_set_params},                \
        {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))km_settable_params},      \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has},                              \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match},                          \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))km_validate},                    \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))gen_init_##PS},                  \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))gen_set_params},           \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))gen_settable_params}, \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))gen},                                 \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))gen_cleanup},                 \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup},                              \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import},                        \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_imexport_types},          \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export},                        \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_imexport_types},          \
        {0, NULL},                                                                    \
    };

KEYMGMT(512)
KEYMGMT(768)
KEYMGMT(1024)
