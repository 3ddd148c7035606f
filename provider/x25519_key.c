/* X25519 key hooks (provider/key.h), and the pieces stock's ECX key
 * management (providers/implementations/keymgmt/ecx_kmgmt.c,
 * crypto/ec/ecx_backend.c) shares between X25519 and Ed25519: import
 * (ossl_ecx_key_fromdata), generation parameters, set_params, the key
 * material get_params answers. Stock's answers on 3.0, 3.5, 3.6 and 4.0,
 * checks and errors included. */
#include <strings.h>
#include <string.h>

#include <openssl/err.h>

#include "ecx.h"
#include "runtime/stats.h"

#define ECX_PUB_BUF 57 /* stock's ECX_KEY pubkey buffer (X448's size) */

/* Reads an octet-string parameter as OSSL_PARAM_get_octet_string does:
 * errors (bad type, too long) from 3.5 on, silently before. */
static int get_octets(const cs_prov *prov, const OSSL_PARAM *p, void *buf, size_t max, size_t *len)
{
    if (prov->core_version >= 305)
        return cs_param_get_octets(prov, p, buf, max, len);
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size > max)
        return 0;
    memcpy(buf, p->data, p->data_size);
    *len = p->data_size;
    return 1;
}

/* Sets an octet-string parameter as OSSL_PARAM_set_octet_string: errors
 * from 3.5 on, silently before. */
static int set_octets(const cs_prov *prov, OSSL_PARAM *p, const void *v, size_t len)
{
    if (prov->core_version >= 305)
        return cs_param_set_octets(prov, p, v, len);
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size < len)
        return 0;
    memcpy(p->data, v, len);
    return 1;
}

int cs_ecx_import(cs_key *key, const cs_key_parts *parts, int include_private)
{
    const cs_prov *prov = key->prov;
    const OSSL_PARAM *pp = cs_param_locate(parts->params, CS_P_PUB);
    const OSSL_PARAM *pk = include_private ? cs_param_locate(parts->params, CS_P_PRIV) : NULL;
    uint8_t pub[ECX_PUB_BUF];
    size_t len = 0;
    if (!pp && !pk)
        return 0;
    if (pk) {
        /* stock lets get_octet_string allocate: any length is read (only
         * the type is checked), then one not 32 bytes long is refused */
        if (pk->data_type == OSSL_PARAM_OCTET_STRING && pk->data_size != 32)
            return 0;
        if (!cs_key_secret(key) || !get_octets(prov, pk, key->priv, 32, &len) || len != 32)
            return 0;
        key->has_priv = 1;
    }
    if (pp) {
        if (!get_octets(prov, pp, pub, sizeof pub, &len) || len != 32)
            return 0;
        memcpy(key->pub, pub, 32);
    } else if (!key->hooks->pub_from_priv(key)) {
        return 0;
    }
    key->has_pub = 1;
    return 1;
}

int cs_ecx_get_material(cs_key *key, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    const cs_prov *prov = key->prov;
    /* stock writes its pubkey buffer whether or not the key has one */
    if ((key->hooks->flags & CS_KEY_P_ENCODED_PUB) &&
        (p = cs_param_locate_mut(params, CS_P_ENCODED_PUB_KEY)) && !set_octets(prov, p, key->pub, 32))
        return 0;
    if ((p = cs_param_locate_mut(params, CS_P_PUB)) && !set_octets(prov, p, key->pub, 32))
        return 0;
    if (key->has_priv && (p = cs_param_locate_mut(params, CS_P_PRIV)) &&
        !set_octets(prov, p, key->priv, 32))
        return 0;
    return 1;
}

int cs_ecx_gen_set_params(cs_key_gen *g, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    if ((p = cs_param_locate(params, "group"))) {
        /* one group per algorithm, and only for key exchange */
        const char *want = g->hooks->ps == 25519 ? "x25519" : NULL;
        if (p->data_type != OSSL_PARAM_UTF8_STRING || !want || !p->data ||
            strcasecmp(p->data, want) != 0) {
            CS_RAISE(g->prov, CS_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT, NULL);
            return 0;
        }
    }
    if ((p = cs_param_locate(params, CS_P_PROPERTIES)) && p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    if (g->prov->core_version >= 305 && (p = cs_param_locate(params, CS_P_DHKEM_IKM)) &&
        p->data_size != 0 && p->data != NULL) {
        if (!get_octets(g->prov, p, g->ikm, sizeof g->ikm, &g->ikm_len))
            return 0;
    }
    return 1;
}

#define P_GROUP_PROPERTIES                                                            \
    OSSL_PARAM_utf8_string("group", NULL, 0), OSSL_PARAM_utf8_string(CS_P_PROPERTIES, NULL, 0)
const OSSL_PARAM cs_ecx_gen_settable_30[] = {P_GROUP_PROPERTIES, OSSL_PARAM_END};
const OSSL_PARAM cs_ecx_gen_settable_35[] = {
    P_GROUP_PROPERTIES, OSSL_PARAM_octet_string(CS_P_DHKEM_IKM, NULL, 0), OSSL_PARAM_END,
};

const OSSL_PARAM cs_ecx_key_types[] = {CS_ECX_P_KEYS, OSSL_PARAM_END};

/* The dispatched curve implementation; NULL (internal error raised) when
 * the dispatcher no longer has one (controls re-read since the offer). */
const cs_c25519_impl *cs_ecx_impl(const cs_prov *prov, const char *op)
{
    const cs_c25519_impl *impl = cs_dispatch_c25519();
    if (!impl)
        CS_RAISE(prov, CS_LIB_PROV, ERR_R_INTERNAL_ERROR, NULL);
    else
        cs_stats_count(op, impl->name, 255);
    return impl;
}

int cs_ecx_gen_finish(cs_key *key)
{
    key->has_priv = 1;
    if (!key->hooks->pub_from_priv(key))
        return 0;
    key->has_pub = 1;
    return 1;
}

int cs_ecx_pub_from_priv(cs_key *key)
{
    int x = key->hooks->ps == 25519;
    const cs_c25519_impl *impl =
        cs_ecx_impl(key->prov, x ? CS_OP_X25519_KEYGEN : CS_OP_ED25519_PUBKEY);
    if (impl)
        (x ? impl->x25519_base : impl->ed25519_pubkey)(key->pub, key->priv);
    return impl != NULL;
}

/* Stock's ecx_gen for X25519: 32 random bytes (or the DHKEM derivation of
 * a given ikm), clamped and stored clamped, then the public value. */
static int x25519_gen(cs_key *key, const cs_key_gen *g)
{
    if (g->ikm_len != 0) {
        if (!cs_x25519_dhkem_derive(g->prov, key->priv, g->ikm, g->ikm_len))
            return 0;
    } else if (!cs_prov_random(g->prov, key->priv, 32)) {
        return 0;
    }
    key->priv[0] &= 248;
    key->priv[31] &= 127;
    key->priv[31] |= 64;
    return cs_ecx_gen_finish(key);
}

/* X25519's set_params: encoded-pub-key (a TLS peer's share: exactly 32
 * bytes; the key becomes public-only, as stock drops the private key) and
 * properties (a UTF-8 string; kept by stock for its SHA fetches, unused
 * here). */
static int x25519_set_params(cs_key *key, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    uint8_t pub[ECX_PUB_BUF];
    size_t len;
    if ((p = cs_param_locate(params, CS_P_ENCODED_PUB_KEY))) {
        if (p->data_size != 32 || !get_octets(key->prov, p, pub, sizeof pub, &len))
            return 0;
        cs_key_reset(key);
        memcpy(key->pub, pub, 32);
        key->has_pub = 1;
    }
    if ((p = cs_param_locate(params, CS_P_PROPERTIES)) && p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    return 1;
}

static const OSSL_PARAM settable[] = {
    OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0),
    OSSL_PARAM_utf8_string(CS_P_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

CS_ECX_KEYMGMT(x25519, "X25519", 25519, 253, 32, CS_KEY_P_ENCODED_PUB,
               OSSL_PARAM_octet_string(CS_P_ENCODED_PUB_KEY, NULL, 0),
               .set_params = x25519_set_params, .settable = CS_KEY_PARAMS(settable));
