/* The rest of an x86-64 table's source (adx.c, mulx.c, ifma.c), after
 * fe64.h with its carry chains: the curve templates over that field, the
 * X25519 ladder replaced by the whole-ladder function LADDER_FN
 * (ladder_body.h, built by ladder_adx.S or ladder_mulx.S with the same
 * chains, or ladder_ifma.c), Ed25519's fixed-base loop by COMB_FN
 * (comb_body.h) and, where the includer defines DOUBLE_MUL_FN,
 * verification's double-scalar multiplication by that function. */
#ifndef CRYPTOSHIM_C25519_TABLE64_H
#define CRYPTOSHIM_C25519_TABLE64_H

#include "../../ct.h"

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

/* Ed25519's fixed-base multiplication, COMB_FN (comb_body.h, built by
 * comb_adx.S or comb_mulx.S with the same chains): X, Y, Z, T of a B for a
 * secret scalar a < 2^255 over the comb tables tab and tab16, to
 * xyzt[0..15]. */
void COMB_FN(uint64_t xyzt[16], const uint8_t a[32], const uint8_t tab[32][8][96],
             const uint8_t tab16[32][8][96]);

#define FE_HAVE_BASE_MUL 1
static inline void fe_base_mul(fe *X, fe *Y, fe *Z, fe *T, const uint8_t a[32],
                               const uint8_t tab[32][8][96], const uint8_t tab16[32][8][96])
{
    uint64_t o[16];
    COMB_FN(o, a, tab, tab16);
    memcpy(X->v, o, 32);
    memcpy(Y->v, o + 4, 32);
    memcpy(Z->v, o + 8, 32);
    memcpy(T->v, o + 12, 32);
    cs_wipe(o, sizeof(o));
}

#ifdef DOUBLE_MUL_FN
/* Ed25519 verification's r = sum(na[i] 2^i) A + sum(nb[i] 2^i) B, variable
 * time, for ed25519_ops.h's width-5 and width-8 NAF digits na, nb and A's
 * X, Y, Z, T (xyzt[0..15]): X, Y, Z to xyz[0..11]. */
void DOUBLE_MUL_FN(uint64_t xyz[12], const int8_t na[256], const uint64_t xyzt[16],
                   const int8_t nb[256]);

#define FE_HAVE_DOUBLE_MUL 1
static inline void fe_double_mul(fe *X, fe *Y, fe *Z, const int8_t na[256], const fe *AX,
                                 const fe *AY, const fe *AZ, const fe *AT, const int8_t nb[256])
{
    uint64_t a[16], o[12];
    memcpy(a, AX->v, 32);
    memcpy(a + 4, AY->v, 32);
    memcpy(a + 8, AZ->v, 32);
    memcpy(a + 12, AT->v, 32);
    DOUBLE_MUL_FN(o, na, a, nb);
    memcpy(X->v, o, 32);
    memcpy(Y->v, o + 4, 32);
    memcpy(Z->v, o + 8, 32);
}
#endif

#include "../curve_impl.h"

#endif
