/* Ed25519 key hooks (provider/key.h) with stock's ECX answers
 * (providers/implementations/keymgmt/ecx_kmgmt.c): import, generation of
 * 32 random bytes with the public key derived by the curve kernel,
 * mandatory-digest "", no settable parameters, no group for generation. */
#include "ecx.h"

/* Stock's ecx_gen for Ed25519: 32 random bytes; a DHKEM ikm fails it. */
static int ed25519_gen(cs_key *key, const cs_key_gen *g)
{
    return g->ikm_len == 0 && cs_prov_random(g->prov, key->priv, 32) && cs_ecx_gen_finish(key);
}

/* ps 0: no group (generation refuses one). */
CS_ECX_KEYMGMT(ed25519, "ED25519", 0, 256, 64, CS_KEY_P_MAND_DIGEST,
               OSSL_PARAM_utf8_string(CS_P_MANDATORY_DIGEST, NULL, 0));
