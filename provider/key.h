/* One provider key for every algorithm family (issue 35): one key struct
 * and one set of OSSL keymgmt functions (provider/key.c); a family supplies
 * a hooks table (cs_key_hooks) per parameter set and gets its dispatch
 * table from CS_KEYMGMT_DISPATCH.
 *
 * Contract between the skeleton and a family:
 * - The skeleton owns allocation, reference counting, the secret block
 *   (secure heap), the has/validate/export/dup/get_params logic common to
 *   stock's families, generation contexts and the prepared-form lifecycle.
 * - The family owns everything where stock's families differ: which key
 *   parts import accepts and with which error (import), what a seed or a
 *   private key derives (from_seed, pub_from_priv), the pairwise test, its
 *   parameter tables per OpenSSL release, generation parameters, and its
 *   prepared form (prepare/unprepare).
 * - Hooks may be NULL where documented; every non-NULL hook raises
 *   OpenSSL's error for the release (key->prov->core_version) itself.
 * - Keys are shared between threads once they hold material: nothing but
 *   the prepared slots changes after import or generation, and those are
 *   published with a compare-and-swap (cs_key_prepared). */
#ifndef CRYPTOSHIM_PROV_KEY_H
#define CRYPTOSHIM_PROV_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "prov.h"

struct cs_key;
struct cs_key_gen;

/* The key parts an import names, as read by the skeleton: each `given`
 * when its parameter is present (then data/len are the parameter's, data
 * possibly NULL), read with cs_param_get_octets_ptr (an octet string or
 * octet pointer; another type has already failed with stock's error).
 * Parts the selection excludes (seed and priv without the private bit)
 * are not read. */
typedef struct cs_key_part {
    int given;
    const uint8_t *data;
    size_t len;
} cs_key_part;

typedef struct cs_key_parts {
    cs_key_part seed, priv, pub;
    const OSSL_PARAM *params; /* the whole list, for family-specific names */
} cs_key_parts;

/* Prepared-form slots: a per-key precomputation a family makes on first
 * use through cs_key_prepared (hooks->prepare), or stores itself into
 * key->prep[slot] while the key is not yet shared (import, generation:
 * ML-KEM's keygen fills it as a by-product); freed by hooks->unprepare
 * with the key or when its material changes. */
enum { CS_KEY_PREP_PUB = 0, CS_KEY_PREP_PRIV = 1 };

/* Flags of cs_key_hooks.flags. */
#define CS_KEY_GEN_EMPTY 1u      /* gen without key-pair selection gives an empty key */
#define CS_KEY_P_ENCODED_PUB 2u  /* get_params answers encoded-pub-key with pub */
#define CS_KEY_P_MAND_DIGEST 4u  /* get_params answers mandatory-digest "" */
#define CS_KEY_EXPORT_PUB_ALWAYS 8u /* export and get_params write pub even
                                     * when the key has none (stock's ECX:
                                     * its zero bytes) */
#define CS_KEY_DUP_PRIV_WITH_PUB 16u /* dup of a private selection also
                                      * copies the public key (ML-KEM) */
#define CS_KEY_RAW_PARTS 64u /* import reads no parts: the family reads
                              * parts->params itself (stock's ECX takes
                              * only octet strings, with its own errors) */
#define CS_KEY_P_OWN_MATERIAL 32u /* get_params leaves pub, priv, seed and
                                   * encoded-pub-key to hooks->get_params */
#define CS_KEY_EXPORT_PRIV_FIRST 128u /* export writes seed and priv before
                                       * pub (stock's ML-KEM and ML-DSA order) */

/* A parameter list as the core's release has it: `from` on cores of
 * version `since` (305 for 3.5) and later, `before` on older ones; with
 * `before` NULL, `from` on every core; both NULL: the empty list. */
typedef struct cs_key_params {
    const OSSL_PARAM *before;
    int since;
    const OSSL_PARAM *from;
} cs_key_params;
#define CS_KEY_PARAMS(list) {NULL, 0, (list)}
#define CS_KEY_PARAMS_SINCE(old, since, new) {(old), (since), (new)}

/* Parameter-list pieces the families share, in stock's orders. */
#define CS_KEY_P_SIZES                                                          \
    OSSL_PARAM_int(CS_P_BITS, NULL), OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL), \
        OSSL_PARAM_int(CS_P_MAX_SIZE, NULL)
#define CS_KEY_P_SEC_CATEGORY OSSL_PARAM_int(CS_P_SECURITY_CATEGORY, NULL)
#define CS_KEY_P_SEED_PRIV_PUB                                                        \
    OSSL_PARAM_octet_string(CS_P_SEED, NULL, 0), OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0), \
        OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0)

typedef struct cs_key_hooks {
    const char *name;   /* algorithm name as stock spells it in errors ("X25519") */
    int ps;             /* family's parameter set (44, 768, 25519...) */
    size_t pub_bytes;   /* public key bytes */
    size_t priv_bytes;  /* private key bytes */
    size_t seed_bytes;  /* 0: the family has no seed */
    int bits, sec_bits, sec_category, max_size; /* get_params answers */
    int sec_category_since; /* core version answering security-category
                             * (305, 306; 0: never) */
    unsigned flags;

    /* Sets an empty key from parts as stock's import does (checks, errors,
     * which part wins). Secret storage: cs_key_secret(key). On failure the
     * skeleton empties the key. Required. */
    int (*import)(struct cs_key *key, const cs_key_parts *parts, int include_private);
    /* Derives priv and pub from key->seed (seed_bytes > 0), counting the
     * call in the stats. NULL when the family has no seed. */
    int (*from_seed)(struct cs_key *key);
    /* Computes key->pub from key->priv (key generation, import without a
     * public key), counting the call. Required. */
    int (*pub_from_priv)(struct cs_key *key);
    /* Fills a new key's secret part for generation (seed or private key)
     * from g (its seed when given) or fresh randomness, then derives the
     * rest. Required. */
    int (*gen)(struct cs_key *key, const struct cs_key_gen *g);
    /* Stock's pairwise test for a key-pair validate (raising its error);
     * NULL: recompute pub from priv and compare. */
    int (*pairwise)(const struct cs_key *key);
    /* Key match as stock's (NULL: ECX's rule: same family and parameter
     * set; public keys compared when both have one, else private keys). */
    int (*match)(const struct cs_key *a, const struct cs_key *b, int selection);
    /* Export refused before anything is written (NULL: never); raises. */
    int (*export_refused)(const struct cs_key *key, int selection);
    /* 1 when export leaves priv out of a private selection although the
     * key has it, giving the seed alone (ML-KEM, ML-DSA under
     * prefer_seed=no: the default provider's encoders re-import it); NULL:
     * never. */
    int (*export_seed_only)(const struct cs_key *key);
    /* Family parameters get_params answers beyond the common ones
     * (bits, security-bits, max-size, security-category, pub, priv, seed,
     * encoded-pub-key, mandatory-digest per flags). NULL: none. */
    int (*get_params)(struct cs_key *key, OSSL_PARAM params[]);
    /* The gettable list. */
    cs_key_params gettable;
    /* set_params (NULL: accepts anything) and its list (empty: none). */
    int (*set_params)(struct cs_key *key, const OSSL_PARAM params[]);
    cs_key_params settable;
    /* Generation parameters (seed, group, properties, ...) into g, with
     * stock's errors, and their list; required. Also called by gen_init
     * with g->selection set, so it may refuse a selection stock's
     * gen_init refuses (0: no context). */
    int (*gen_set_params)(struct cs_key_gen *g, const OSSL_PARAM params[]);
    cs_key_params gen_settable;
    /* Makes the prepared form of slot (CS_KEY_PREP_PUB or _PRIV) for the
     * implementation dispatched now, and frees one. NULL: no prepared form. */
    void *(*prepare)(struct cs_key *key, int slot);
    void (*unprepare)(struct cs_key *key, void *prep, int slot);
    /* query_operation_name's answer (NULL: the algorithm's own name). */
    const char *opname;
    /* import_types/export_types' answer for a key-pair selection. */
    const OSSL_PARAM *key_types;
} cs_key_hooks;

/* A key of any family. seed and priv point into the secret block
 * (allocated with the first private material: NULL in a public-only key);
 * pub is pub_bytes long, zero until set. */
typedef struct cs_key {
    cs_prov *prov;
    const cs_key_hooks *hooks;
    int refs; /* atomic; the key is freed when it drops to 0 */
    int has_pub, has_priv, has_seed;
    uint8_t *secret; /* seed_bytes + priv_bytes, secure heap */
    uint8_t *seed, *priv;
    void *prep[2]; /* CS_KEY_PREP_PUB, CS_KEY_PREP_PRIV; via cs_key_prepared */
    uint8_t pub[];   /* hooks->pub_bytes (allocated with the key) */
} cs_key;

/* A generation request, in secret memory: seed holds a given seed
 * (has_seed, seed_len: ML-DSA's 32, ML-KEM's 64 bytes), ikm a given DHKEM
 * input keying material (X25519, 3.5+ cores), selection gen_init's. */
typedef struct cs_key_gen {
    cs_prov *prov;
    const cs_key_hooks *hooks;
    int selection;
    int has_seed;
    size_t seed_len;
    uint8_t seed[64];
    size_t ikm_len; /* 0: none */
    uint8_t ikm[256];
} cs_key_gen;

/* import_types/export_types of families whose parts are seed, priv and
 * pub (ML-KEM, ML-DSA), in stock's order. */
extern const OSSL_PARAM cs_key_types_seed_priv_pub[];
/* The generation list seed, properties (ML-DSA; ML-KEM from 3.6). */
extern const OSSL_PARAM cs_key_gen_seed_properties[];

/* The list of l for prov's core (prov NULL: the oldest). */
const OSSL_PARAM *cs_key_params_for(const cs_prov *prov, const cs_key_params *l);

/* A new empty key of hooks' family (refs 1), or NULL without memory. */
cs_key *cs_key_new(cs_prov *prov, const cs_key_hooks *hooks);
/* Takes one more reference (operation contexts hold their keys); NULL:
 * nothing. */
void cs_key_up_ref(cs_key *key);
/* Drops a reference; the last one wipes the secrets and frees the key. */
void cs_key_free(cs_key *key);
/* Gives the key its secret block once: 1, or 0 without memory. */
int cs_key_secret(cs_key *key);
/* After a derivation from the seed: marks seed, priv and pub present,
 * then drops the seed as a 3.5 or 3.6 core does under the family's
 * retain_seed=no (retain_flag, a CS_CONF_* bit, clear); 4.0 keeps it (its
 * encoder leaves it out). */
void cs_key_seed_derived(cs_key *key, int retain_flag);
/* Empties the key: flags cleared, secrets wiped, prepared forms freed. */
void cs_key_reset(cs_key *key);
/* The prepared form of slot, made by hooks->prepare and published on
 * first use; NULL when the family has none or it could not be made. */
void *cs_key_prepared(cs_key *key, int slot);

/* Operation contexts (signature, key exchange, KEM) are structs whose
 * first member is their cs_prov pointer. A new zeroed one of size bytes
 * holding provctx, or NULL without memory. */
void *cs_opctx_new(void *provctx, size_t size);
/* A byte copy of ctx, or NULL without memory; the caller takes its own
 * references (keys, buffers). */
void *cs_opctx_dup(const void *ctx, size_t size);
/* Wipes and frees ctx (NULL: nothing), after the caller dropped what it
 * holds. */
void cs_opctx_free(void *ctx, size_t size);

/* Import-part helper: 1 when part is absent or exactly want bytes; else
 * 0, raising reason (library PROV) with no data unless reason is 0. */
int cs_key_part_len_ok(const cs_prov *prov, const cs_key_part *part, size_t want, int reason);

/* The skeleton's keymgmt functions (for families that wrap one). */
void *cs_key_gen_init(cs_prov *prov, const cs_key_hooks *hooks, int selection,
                      const OSSL_PARAM params[]);
int cs_key_import(void *vkey, int selection, const OSSL_PARAM params[]);
int cs_key_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg);
void cs_key_kmfree(void *vkey);
int cs_key_has(const void *vkey, int selection);
int cs_key_match(const void *v1, const void *v2, int selection);
int cs_key_validate(const void *vkey, int selection, int checktype);
int cs_key_get_params(void *vkey, OSSL_PARAM params[]);
int cs_key_set_params(void *vkey, const OSSL_PARAM params[]);
void *cs_key_dup(const void *vsrc, int selection);
int cs_key_gen_set_params(void *vgen, const OSSL_PARAM params[]);
void *cs_key_generate(void *vgen, OSSL_CALLBACK *cb, void *cbarg);
void cs_key_gen_cleanup(void *vgen);
const char *cs_key_opname(const cs_key_hooks *hooks);

/* Defines the keymgmt dispatch table `sym` for hooks (a cs_key_hooks
 * object): the per-algorithm entry points (new, gen_init, the parameter
 * lists, which receive only the provider context) and the skeleton's
 * shared functions. */
#define CS_KEYMGMT_DISPATCH(sym, hooks)                                                  \
    static void *sym##_new(void *provctx) { return cs_key_new(provctx, &(hooks)); }     \
    static void *sym##_gen_init(void *provctx, int sel, const OSSL_PARAM p[])           \
    {                                                                                    \
        return cs_key_gen_init(provctx, &(hooks), sel, p);                               \
    }                                                                                    \
    static const OSSL_PARAM *sym##_gettable(void *provctx)                              \
    {                                                                                    \
        return cs_key_params_for(provctx, &(hooks).gettable);                            \
    }                                                                                    \
    static const OSSL_PARAM *sym##_settable(void *provctx)                              \
    {                                                                                    \
        return cs_key_params_for(provctx, &(hooks).settable);                            \
    }                                                                                    \
    static const OSSL_PARAM *sym##_gen_settable(void *genctx, void *provctx)            \
    {                                                                                    \
        (void)genctx;                                                                    \
        return cs_key_params_for(provctx, &(hooks).gen_settable);                        \
    }                                                                                    \
    static const OSSL_PARAM *sym##_types(int selection)                                 \
    {                                                                                    \
        return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ? (hooks).key_types : NULL;     \
    }                                                                                    \
    static const char *sym##_opname(int op)                                              \
    {                                                                                    \
        (void)op;                                                                        \
        return cs_key_opname(&(hooks));                                                  \
    }                                                                                    \
    const OSSL_DISPATCH sym[] = {                                                        \
        CS_FN(OSSL_FUNC_KEYMGMT_NEW, sym##_new),                                         \
        CS_FN(OSSL_FUNC_KEYMGMT_FREE, cs_key_kmfree),                                    \
        CS_FN(OSSL_FUNC_KEYMGMT_GET_PARAMS, cs_key_get_params),                          \
        CS_FN(OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, sym##_gettable),                        \
        CS_FN(OSSL_FUNC_KEYMGMT_SET_PARAMS, cs_key_set_params),                          \
        CS_FN(OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, sym##_settable),                        \
        CS_FN(OSSL_FUNC_KEYMGMT_HAS, cs_key_has),                                        \
        CS_FN(OSSL_FUNC_KEYMGMT_MATCH, cs_key_match),                                    \
        CS_FN(OSSL_FUNC_KEYMGMT_VALIDATE, cs_key_validate),                              \
        CS_FN(OSSL_FUNC_KEYMGMT_IMPORT, cs_key_import),                                  \
        CS_FN(OSSL_FUNC_KEYMGMT_IMPORT_TYPES, sym##_types),                              \
        CS_FN(OSSL_FUNC_KEYMGMT_EXPORT, cs_key_export),                                  \
        CS_FN(OSSL_FUNC_KEYMGMT_EXPORT_TYPES, sym##_types),                              \
        CS_FN(OSSL_FUNC_KEYMGMT_GEN_INIT, sym##_gen_init),                               \
        CS_FN(OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, cs_key_gen_set_params),                  \
        CS_FN(OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, sym##_gen_settable),                \
        CS_FN(OSSL_FUNC_KEYMGMT_GEN, cs_key_generate),                                   \
        CS_FN(OSSL_FUNC_KEYMGMT_GEN_CLEANUP, cs_key_gen_cleanup),                        \
        CS_FN(OSSL_FUNC_KEYMGMT_DUP, cs_key_dup),                                        \
        CS_FN(OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, sym##_opname),                     \
        {0, NULL},                                                                       \
    }

#endif
