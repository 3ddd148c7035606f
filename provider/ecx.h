/* What stock's ECX key management shares between X25519 and Ed25519
 * (provider/x25519_key.c), for the two families' hooks and operations. */
#ifndef CRYPTOSHIM_PROV_ECX_H
#define CRYPTOSHIM_PROV_ECX_H

#include "key.h"
#include "runtime/dispatch_c25519.h"

/* ossl_ecx_key_fromdata: priv (private selection) then pub, each an octet
 * string of exactly 32 bytes (pub read into stock's 57-byte buffer); no
 * pub: derived from priv; neither: 0. No consistency check, as stock. */
int cs_ecx_import(cs_key *key, const cs_key_parts *parts, int include_private);
/* encoded-pub-key (X25519 only), pub and priv as stock's get_params
 * writes them (pub whether or not the key has one). */
int cs_ecx_get_material(cs_key *key, OSSL_PARAM params[]);
/* Generation parameters: group ("x25519" for X25519, refused for
 * Ed25519), properties, dhkem-ikm (3.5+), and their lists (3.0, 3.5 on). */
int cs_ecx_gen_set_params(cs_key_gen *g, const OSSL_PARAM params[]);
extern const OSSL_PARAM cs_ecx_gen_settable_30[], cs_ecx_gen_settable_35[];
extern const OSSL_PARAM cs_ecx_key_types[];
/* The key parts in stock's order. */
#define CS_ECX_P_KEYS OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0), OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0)

/* Defines an ECX family's key management from what X25519 and Ed25519
 * share (32-byte keys, 128 security bits, security-category 0 from 3.6,
 * stock's ECX import, export and generation parameters) and the family's
 * own: its generation pfx##_gen, name, parameter set (0:
 * generation takes no group), bits, max-size, extra flags, and fam, the
 * one parameter it adds to get_params' list (after the sizes before 3.6,
 * last from 3.6 on, as stock lists it); further hook fields follow. The
 * dispatch table is cs_<pfx>_keymgmt. */
#define CS_ECX_KEYMGMT(pfx, nm, ps_, bits_, max_, flags_, fam, ...)                          \
    static const OSSL_PARAM pfx##_gettable_30[] = {CS_KEY_P_SIZES, fam, CS_ECX_P_KEYS,         \
                                                   OSSL_PARAM_END};                            \
    static const OSSL_PARAM pfx##_gettable_36[] = {CS_KEY_P_SIZES, CS_KEY_P_SEC_CATEGORY,      \
                                                   CS_ECX_P_KEYS, fam, OSSL_PARAM_END};        \
    static const cs_key_hooks pfx##_hooks = {                                                  \
        .name = nm, .ps = ps_, .pub_bytes = 32, .priv_bytes = 32, .bits = bits_,               \
        .sec_bits = 128, .sec_category = 0, .sec_category_since = 306, .max_size = max_,       \
        .flags = CS_KEY_GEN_EMPTY | CS_KEY_EXPORT_PUB_ALWAYS | CS_KEY_P_OWN_MATERIAL |         \
                 CS_KEY_RAW_PARTS | (flags_),                                                  \
        .import = cs_ecx_import, .pub_from_priv = cs_ecx_pub_from_priv, .gen = pfx##_gen,      \
        .get_params = cs_ecx_get_material,                                                     \
        .gettable = CS_KEY_PARAMS_SINCE(pfx##_gettable_30, 306, pfx##_gettable_36),            \
        .gen_set_params = cs_ecx_gen_set_params,                                               \
        .gen_settable = CS_KEY_PARAMS_SINCE(cs_ecx_gen_settable_30, 305, cs_ecx_gen_settable_35), \
        .key_types = cs_ecx_key_types, __VA_ARGS__};                                           \
    CS_KEYMGMT_DISPATCH(cs_##pfx##_keymgmt, pfx##_hooks)

/* The dispatched curve implementation with the call op counted in the
 * stats, or NULL with an internal error. */
const cs_c25519_impl *cs_ecx_impl(const cs_prov *prov, const char *op);
/* The public key of key->priv on the dispatched kernel, counted: X25519's
 * public value (the kernel clamps, as stock's
 * ossl_x25519_public_from_private, counted as a key generation) or
 * RFC 8032's Ed25519 public key. */
int cs_ecx_pub_from_priv(cs_key *key);
/* The end of both families' generation: key->priv is set; marks it and
 * derives the public key. 1, or 0 when the derivation fails. */
int cs_ecx_gen_finish(cs_key *key);
/* RFC 9180 DeriveKeyPair's private key for DHKEM(X25519, HKDF-SHA256)
 * from ikm (at least 32 bytes, else stock's error), through libcrypto's
 * HMAC-SHA256 as stock's ossl_ecx_dhkem_derive_private: 1 or 0. */
int cs_x25519_dhkem_derive(const cs_prov *prov, uint8_t priv[32], const uint8_t *ikm,
                           size_t ikmlen);

#endif
