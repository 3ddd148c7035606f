/* Which curve implementation (kernels/c25519) serves the provider's X25519
 * and Ed25519, and whether the provider offers them at all: the policy's
 * choice for the c25519 family (its rules in runtime/policy_builtin.c, or
 * a policy file's), or under CRYPTOSHIM_KERNELS naming curve
 * implementations the first listed that runs here (runtime/registry.h).
 * Decided with every decision table (runtime/dispatch.h). */
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

/* The implementation chosen; NULL when the choice is libcrypto's own (or
 * the family has none). */
const cs_c25519_impl *cs_dispatch_c25519(void);

/* Whether the provider offers alg ("faster or out of the way"): an
 * implementation was chosen and has alg's entries (a table may offer no
 * Ed25519). When not, the default provider serves alg. */
int cs_dispatch_c25519_serves(enum cs_c25519_alg alg);

/* Kept for callers of the stand-in: the decision is rebuilt with every
 * decision table (cs_dispatch_refresh), so there is nothing to forget. */
void cs_dispatch_c25519_refresh(void);

#endif
