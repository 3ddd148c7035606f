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
 * Ed25519), properties, dhkem-ikm (3.5+), and their list. */
int cs_ecx_gen_set_params(cs_key_gen *g, const OSSL_PARAM params[]);
const OSSL_PARAM *cs_ecx_gen_settable(const cs_prov *prov);
extern const OSSL_PARAM cs_ecx_key_types[];
/* Parameter-list pieces in stock's order (sizes; then the key parts). */
#define CS_ECX_P_SIZES                                                          \
    OSSL_PARAM_int(CS_P_BITS, NULL), OSSL_PARAM_int(CS_P_SECURITY_BITS, NULL), \
        OSSL_PARAM_int(CS_P_MAX_SIZE, NULL)
#define CS_ECX_P_KEYS OSSL_PARAM_octet_string(CS_P_PUB, NULL, 0), OSSL_PARAM_octet_string(CS_P_PRIV, NULL, 0)

/* The cs_key_hooks fields X25519 and Ed25519 share (32-byte keys, 128
 * security bits, security-category 0 from 3.6, stock's ECX import, export
 * and generation parameters), with the family's name, bits, max-size and
 * extra flags. */
#define CS_ECX_HOOKS(nm, bits_, max_, flags_)                                                 \
    .name = nm, .pub_bytes = 32, .priv_bytes = 32, .bits = bits_, .sec_bits = 128,          \
    .sec_category = 0, .sec_category_since = 306, .max_size = max_,                           \
    .flags = CS_KEY_GEN_EMPTY | CS_KEY_EXPORT_PUB_ALWAYS | CS_KEY_P_OWN_MATERIAL |            \
             CS_KEY_RAW_PARTS | (flags_),                                                     \
    .import = cs_ecx_import, .get_params = cs_ecx_get_material,                               \
    .gen_set_params = cs_ecx_gen_set_params, .gen_settable = cs_ecx_gen_settable,             \
    .key_types = cs_ecx_key_types

/* The dispatched curve implementation, or NULL with an internal error. */
const cs_c25519_impl *cs_ecx_impl(const cs_prov *prov);
/* RFC 9180 DeriveKeyPair's private key for DHKEM(X25519, HKDF-SHA256)
 * from ikm (at least 32 bytes, else stock's error), through libcrypto's
 * HMAC-SHA256 as stock's ossl_ecx_dhkem_derive_private: 1 or 0. */
int cs_x25519_dhkem_derive(const cs_prov *prov, uint8_t priv[32], const uint8_t *ikm,
                           size_t ikmlen);

#endif
