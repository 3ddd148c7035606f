/* The x86-64 MULX/ADX implementation "x86_64-adx": the curve templates
 * over the 4x64-bit field of fe64.h, the X25519 ladder replaced by the
 * whole-ladder function of ladder_adx.S. Runs only where BMI2 and ADX are
 * present. */
#include "fe64.h"

/* ladder_adx.S: bits 254..0 of the clamped k on x1; x2 to xz[0..3], z2 to
 * xz[4..7]. */
void cs_c25519_adx_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);

#define FE_HAVE_LADDER 1
static inline void fe_ladder(fe *x2, fe *z2, const fe *x1, const uint8_t k[32])
{
    uint64_t xz[8];
    cs_c25519_adx_ladder(xz, x1->v, k);
    memcpy(x2->v, xz, 32);
    memcpy(z2->v, xz + 4, 32);
}

#include "../curve_impl.h"

CS_C25519_TABLE(cs_c25519_x86_64_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX);
