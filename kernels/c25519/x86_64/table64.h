/* The rest of an x86-64 table's source (adx.c, mulx.c), after fe64.h with
 * its carry chains: the curve templates over that field, the X25519 ladder
 * replaced by the whole-ladder function LADDER_FN (ladder_body.h, built
 * by ladder_adx.S or ladder_mulx.S with the same chains). */
#ifndef CRYPTOSHIM_C25519_TABLE64_H
#define CRYPTOSHIM_C25519_TABLE64_H

/* Bits 254..0 of the clamped k on x1; x2 to xz[0..3], z2 to xz[4..7]. */
void LADDER_FN(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);

#define FE_HAVE_LADDER 1
static inline void fe_ladder(fe *x2, fe *z2, const fe *x1, const uint8_t k[32])
{
    uint64_t xz[8];
    LADDER_FN(xz, x1->v, k);
    memcpy(x2->v, xz, 32);
    memcpy(z2->v, xz + 4, 32);
}

#include "../curve_impl.h"

#endif
