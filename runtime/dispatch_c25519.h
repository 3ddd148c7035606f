/* Which curve implementation (kernels/c25519) serves the provider's X25519
 * and Ed25519, and whether the provider offers them at all. Decided once,
 * on first use, from the CPU features and CRYPTOSHIM_KERNELS. */
#ifndef CRYPTOSHIM_DISPATCH_C25519_H
#define CRYPTOSHIM_DISPATCH_C25519_H

#include "kernels/c25519/c25519.h"

/* The algorithms of the family, for cs_dispatch_c25519_serves. */
enum cs_c25519_alg { CS_C25519_X25519 = 0, CS_C25519_ED25519 = 1 };

/* Operation names in the stats (bits column: 255). */
#define CS_OP_X25519_KEYGEN "x25519_keygen"
#define CS_OP_X25519_DERIVE "x25519_derive"
#define CS_OP_ED25519_PUBKEY "ed25519_pubkey"
#define CS_OP_ED25519_SIGN "ed25519_sign"
#define CS_OP_ED25519_VERIFY "ed25519_verify"

/* The implementation this CPU runs fastest (or under CRYPTOSHIM_KERNELS
 * the first listed there that runs here); NULL when the family has none. */
const cs_c25519_impl *cs_dispatch_c25519(void);

/* Whether the provider offers alg ("faster or out of the way"): under
 * CRYPTOSHIM_KERNELS when it names the implementation picked; otherwise
 * when that implementation was measured faster than libcrypto's own on
 * this CPU class. When not, the default provider serves alg. */
int cs_dispatch_c25519_serves(enum cs_c25519_alg alg);

/* Forgets the decision (for cs_dispatch_refresh, when the controls are
 * re-read). */
void cs_dispatch_c25519_refresh(void);

#endif
