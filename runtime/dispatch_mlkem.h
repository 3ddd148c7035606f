/* Which ML-KEM implementation serves the provider: the fastest one this CPU
 * runs (kernels/mlkem/mlkem.h lists them fastest first), or under
 * CRYPTOSHIM_KERNELS the first listed there that runs here; portable when
 * none does. Decided once, on first use. */
#ifndef CRYPTOSHIM_DISPATCH_MLKEM_H
#define CRYPTOSHIM_DISPATCH_MLKEM_H

#include "kernels/mlkem/mlkem.h"

/* Operation names in the stats (bits column: the parameter set). */
#define CS_OP_MLKEM_KEYGEN "mlkem_keygen"
#define CS_OP_MLKEM_ENCAPS "mlkem_encaps"
#define CS_OP_MLKEM_DECAPS "mlkem_decaps"

/* The implementation for parameter set ps (512/768/1024); never NULL. */
const cs_mlkem_impl *cs_dispatch_mlkem(int ps);

/* Whether the provider offers ML-KEM at all ("faster or out of the way"):
 * under CRYPTOSHIM_KERNELS when it names an ML-KEM implementation this CPU
 * runs; otherwise when the implementation picked is one measured faster
 * than libcrypto's own ML-KEM on this CPU class (the list in
 * runtime/dispatch_mlkem.c, figures in docs/benchmarks.md). When not, the
 * default provider serves ML-KEM and the hybrids. */
int cs_dispatch_mlkem_serves(void);

/* Forgets the decision so the next call decides again from the controls as
 * they are now (for cs_dispatch_refresh, when the controls are re-read). */
void cs_dispatch_mlkem_refresh(void);

#endif
