/* Which ML-KEM implementation serves the provider: the policy's choice
 * (the built-in rules offer ML-KEM only on CPU classes where an
 * implementation was measured faster than libcrypto's own; figures in
 * docs/benchmarks.md), or under CRYPTOSHIM_KERNELS naming ML-KEM
 * implementations the first listed that runs here (runtime/registry.h).
 * Decided with every decision table (runtime/dispatch.h). */
#ifndef CRYPTOSHIM_DISPATCH_MLKEM_H
#define CRYPTOSHIM_DISPATCH_MLKEM_H

#include "dispatch.h"
#include "kernels/mlkem/mlkem.h"

/* Operation names in the stats (bits column: the parameter set). */
#define CS_OP_MLKEM_KEYGEN "mlkem_keygen"
#define CS_OP_MLKEM_ENCAPS "mlkem_encaps"
#define CS_OP_MLKEM_DECAPS "mlkem_decaps"

/* The implementation for parameter set ps (512/768/1024); portable when
 * the choice is libcrypto; never NULL. */
const cs_mlkem_impl *cs_dispatch_mlkem(int ps);

/* Whether the provider offers ML-KEM at all ("faster or out of the way"):
 * whether an implementation was chosen. When not, the default provider
 * serves ML-KEM and the hybrids. */
int cs_dispatch_mlkem_serves(void);

#endif
