/* The field functions that read the same over any limb representation
 * (a struct fe of FE_LIMBS 64-bit limbs v[], and the field header's
 * fe_sub and fe_tobytes): zero, one, copy, negation, the constant-time
 * swap and move, and the sign and zero tests of the canonical value.
 * Included at the end of a field header (fe51.h, x86_64/fe64.h), which
 * defines FE_LIMBS and FE_INLINE (its functions' linkage and inlining). */
#ifndef CRYPTOSHIM_C25519_FE_LIMBWISE_H
#define CRYPTOSHIM_C25519_FE_LIMBWISE_H

FE_INLINE void fe_0(fe *h)
{
    memset(h, 0, sizeof(*h));
}

FE_INLINE void fe_1(fe *h)
{
    fe_0(h);
    h->v[0] = 1;
}

FE_INLINE void fe_copy(fe *h, const fe *f)
{
    *h = *f;
}

FE_INLINE void fe_neg(fe *h, const fe *f)
{
    fe z;
    fe_0(&z);
    fe_sub(h, &z, f);
}

FE_INLINE void fe_cswap(fe *f, fe *g, unsigned b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)b;
    for (int i = 0; i < FE_LIMBS; i++) {
        uint64_t x = (f->v[i] ^ g->v[i]) & m;
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

FE_INLINE void fe_cmov(fe *f, const fe *g, unsigned b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)b;
    for (int i = 0; i < FE_LIMBS; i++)
        f->v[i] ^= (f->v[i] ^ g->v[i]) & m;
}

FE_INLINE int fe_isnegative(const fe *f)
{
    uint8_t s[32];
    fe_tobytes(s, f);
    return s[0] & 1;
}

FE_INLINE int fe_iszero(const fe *f)
{
    uint8_t s[32];
    unsigned acc = 0;
    fe_tobytes(s, f);
    for (int i = 0; i < 32; i++)
        acc |= s[i];
    return (int)(((acc - 1) >> 8) & 1);
}

#endif
