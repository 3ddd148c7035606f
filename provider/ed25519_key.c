/* Ed25519 key hooks (provider/key.h) with stock's ECX answers
 * (providers/implementations/keymgmt/ecx_kmgmt.c): import, generation of
 * 32 random bytes with the public key derived by the curve kernel,
 * mandatory-digest "", no settable parameters, no group for generation. */
#include <string.h>

#include "ecx.h"
#include "runtime/stats.h"

/* RFC 8032 public key of key->priv on the dispatched kernel, counted. */
static int ed25519_pub_from_priv(cs_key *key)
{
    const cs_c25519_impl *impl = cs_ecx_impl(key->prov);
    if (!impl)
        return 0;
    cs_stats_count(CS_OP_ED25519_PUBKEY, impl->name, 255);
    impl->ed25519_pubkey(key->pub, key->priv);
    return 1;
}

/* Stock's ecx_gen for Ed25519: 32 random bytes; a DHKEM ikm fails it. */
static int ed25519_gen(cs_key *key, const cs_key_gen *g)
{
    if (g->ikm_len != 0 || !cs_prov_random(g->prov, key->priv, 32))
        return 0;
    key->has_priv = 1;
    if (!ed25519_pub_from_priv(key))
        return 0;
    key->has_pub = 1;
    return 1;
}

static const OSSL_PARAM gettable_30[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    OSSL_PARAM_int(CS_P_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM gettable_36[] = {
    OSSL_PARAM_int(CS_P_BITS, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL),
    OSSL_PARAM_int(CS_P_MAX_SIZE, NULL),
    OSSL_PARAM_int(CS_P_SECURITY_CATEGORY, NULL),
    OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0),
    OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *ed25519_gettable(const cs_prov *prov)
{
    return prov->core_version >= 306 ? gettable_36 : gettable_30;
}

const cs_key_hooks cs_ed25519_hooks = {
    .name = "ED25519",
    .ps = 0, /* no group: generation refuses one */
    .pub_bytes = 32,
    .priv_bytes = 32,
    .bits = 256,
    .sec_bits = 128,
    .sec_category = 0,
    .sec_category_since = 306,
    .max_size = 64,
    .flags = CS_KEY_GEN_EMPTY | CS_KEY_P_MAND_DIGEST | CS_KEY_EXPORT_PUB_ALWAYS |
             CS_KEY_P_OWN_MATERIAL | CS_KEY_RAW_PARTS,
    .import = cs_ecx_import,
    .pub_from_priv = ed25519_pub_from_priv,
    .gen = ed25519_gen,
    .get_params = cs_ecx_get_material,
    .gettable = ed25519_gettable,
    .gen_set_params = cs_ecx_gen_set_params,
    .gen_settable = cs_ecx_gen_settable,
    .key_types = cs_ecx_key_types,
};

CS_KEYMGMT_DISPATCH(cs_ed25519_keymgmt, cs_ed25519_hooks);
