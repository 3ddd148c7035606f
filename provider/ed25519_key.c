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
    CS_ECX_P_SIZES, OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0), CS_ECX_P_KEYS,
    OSSL_PARAM_END,
};

static const OSSL_PARAM gettable_36[] = {
    CS_ECX_P_SIZES, OSSL_PARAM_int(CS_P_SECURITY_CATEGORY, NULL), CS_ECX_P_KEYS,
    OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0), OSSL_PARAM_END,
};

static const OSSL_PARAM *ed25519_gettable(const cs_prov *prov)
{
    return prov->core_version >= 306 ? gettable_36 : gettable_30;
}

/* ps 0: no group (generation refuses one). */
const cs_key_hooks cs_ed25519_hooks = {
    CS_ECX_HOOKS("ED25519", 256, 64, CS_KEY_P_MAND_DIGEST),
    .ps = 0,
    .pub_from_priv = ed25519_pub_from_priv,
    .gen = ed25519_gen,
    .gettable = ed25519_gettable,
};

CS_KEYMGMT_DISPATCH(cs_ed25519_keymgmt, cs_ed25519_hooks);
