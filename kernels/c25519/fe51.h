/* Portable field arithmetic modulo p = 2^255 - 19 for curve_impl.h: five
 * unsigned 51-bit limbs (radix 2^51), products in unsigned __int128.
 *
 * Bounds: every function returns limbs below 2^51 + 2^15 ("loose"), and
 * accepts loose limbs (or any limbs below 2^54 for mul/sq). fe_add and
 * fe_sub carry their result, so any chain of calls keeps to the bound;
 * the x86-64 field is the fast one, this one is the reference and the
 * fallback. Constant time: no branch or index depends on a value. */
#ifndef CRYPTOSHIM_C25519_FE51_H
#define CRYPTOSHIM_C25519_FE51_H

#include <stdint.h>
#include <string.h>

#define FE51_MASK ((uint64_t)0x7ffffffffffff)

typedef unsigned __int128 fe51_u128;

#define FE_LIMBS 5
#define FE_INLINE static inline

typedef struct {
    uint64_t v[FE_LIMBS];
} fe;

static inline uint64_t fe51_load64(const uint8_t *s)
{
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--)
        r = (r << 8) | s[i];
    return r;
}

/* One carry pass over h (limbs below 2^63): returns loose limbs. */
static inline void fe51_carry(fe *h)
{
    uint64_t c;
    c = h->v[0] >> 51, h->v[0] &= FE51_MASK, h->v[1] += c;
    c = h->v[1] >> 51, h->v[1] &= FE51_MASK, h->v[2] += c;
    c = h->v[2] >> 51, h->v[2] &= FE51_MASK, h->v[3] += c;
    c = h->v[3] >> 51, h->v[3] &= FE51_MASK, h->v[4] += c;
    c = h->v[4] >> 51, h->v[4] &= FE51_MASK, h->v[0] += c * 19;
}

static inline void fe_add(fe *h, const fe *f, const fe *g)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = f->v[i] + g->v[i];
    fe51_carry(h);
}

/* h = f - g computed as f + 4p - g: 4p's limbs exceed any loose g. */
static inline void fe_sub(fe *h, const fe *f, const fe *g)
{
    h->v[0] = (f->v[0] + 0x1fffffffffffb4) - g->v[0];
    for (int i = 1; i < 5; i++)
        h->v[i] = (f->v[i] + 0x1ffffffffffffc) - g->v[i];
    fe51_carry(h);
}

/* Reduces the five 128-bit column sums r into h (loose). */
static inline void fe51_reduce(fe *h, fe51_u128 r0, fe51_u128 r1, fe51_u128 r2, fe51_u128 r3,
                               fe51_u128 r4)
{
    uint64_t c;
    r1 += (uint64_t)(r0 >> 51);
    r2 += (uint64_t)(r1 >> 51);
    r3 += (uint64_t)(r2 >> 51);
    r4 += (uint64_t)(r3 >> 51);
    c = (uint64_t)(r4 >> 51);
    h->v[0] = ((uint64_t)r0 & FE51_MASK);
    h->v[1] = ((uint64_t)r1 & FE51_MASK);
    h->v[2] = ((uint64_t)r2 & FE51_MASK);
    h->v[3] = ((uint64_t)r3 & FE51_MASK);
    h->v[4] = ((uint64_t)r4 & FE51_MASK);
    /* c is below 2^60 for limbs below 2^54: 19c needs 128 bits. */
    fe51_u128 t = (fe51_u128)c * 19 + h->v[0];
    h->v[0] = (uint64_t)t & FE51_MASK;
    h->v[1] += (uint64_t)(t >> 51);
}

static inline void fe_mul(fe *h, const fe *f, const fe *g)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint64_t g1_19 = g1 * 19, g2_19 = g2 * 19, g3_19 = g3 * 19, g4_19 = g4 * 19;
    fe51_u128 r0, r1, r2, r3, r4;
    r0 = (fe51_u128)f0 * g0 + (fe51_u128)f1 * g4_19 + (fe51_u128)f2 * g3_19 +
         (fe51_u128)f3 * g2_19 + (fe51_u128)f4 * g1_19;
    r1 = (fe51_u128)f0 * g1 + (fe51_u128)f1 * g0 + (fe51_u128)f2 * g4_19 +
         (fe51_u128)f3 * g3_19 + (fe51_u128)f4 * g2_19;
    r2 = (fe51_u128)f0 * g2 + (fe51_u128)f1 * g1 + (fe51_u128)f2 * g0 +
         (fe51_u128)f3 * g4_19 + (fe51_u128)f4 * g3_19;
    r3 = (fe51_u128)f0 * g3 + (fe51_u128)f1 * g2 + (fe51_u128)f2 * g1 + (fe51_u128)f3 * g0 +
         (fe51_u128)f4 * g4_19;
    r4 = (fe51_u128)f0 * g4 + (fe51_u128)f1 * g3 + (fe51_u128)f2 * g2 + (fe51_u128)f3 * g1 +
         (fe51_u128)f4 * g0;
    fe51_reduce(h, r0, r1, r2, r3, r4);
}

static inline void fe_sq(fe *h, const fe *f)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t f0_2 = f0 * 2, f1_2 = f1 * 2, f3_19 = f3 * 19, f4_19 = f4 * 19;
    fe51_u128 r0, r1, r2, r3, r4;
    r0 = (fe51_u128)f0 * f0 + (fe51_u128)f1_2 * f4_19 + (fe51_u128)(f2 * 2) * f3_19;
    r1 = (fe51_u128)f0_2 * f1 + (fe51_u128)(f2 * 2) * f4_19 + (fe51_u128)f3 * f3_19;
    r2 = (fe51_u128)f0_2 * f2 + (fe51_u128)f1 * f1 + (fe51_u128)(f3 * 2) * f4_19;
    r3 = (fe51_u128)f0_2 * f3 + (fe51_u128)f1_2 * f2 + (fe51_u128)f4 * f4_19;
    r4 = (fe51_u128)f0_2 * f4 + (fe51_u128)f1_2 * f3 + (fe51_u128)f2 * f2;
    fe51_reduce(h, r0, r1, r2, r3, r4);
}

static inline void fe_mul121666(fe *h, const fe *f)
{
    fe51_u128 r[5];
    for (int i = 0; i < 5; i++)
        r[i] = (fe51_u128)f->v[i] * 121666;
    fe51_reduce(h, r[0], r[1], r[2], r[3], r[4]);
}

static inline void fe_frombytes(fe *h, const uint8_t s[32])
{
    h->v[0] = fe51_load64(s) & FE51_MASK;
    h->v[1] = (fe51_load64(s + 6) >> 3) & FE51_MASK;
    h->v[2] = (fe51_load64(s + 12) >> 6) & FE51_MASK;
    h->v[3] = (fe51_load64(s + 19) >> 1) & FE51_MASK;
    h->v[4] = (fe51_load64(s + 24) >> 12) & FE51_MASK;
}

static inline void fe_tobytes(uint8_t s[32], const fe *f)
{
    fe h = *f;
    uint64_t q;
    fe51_carry(&h);
    fe51_carry(&h); /* now h < 2^255 + 2^13: below 2p */
    /* q = 1 exactly when h >= p, i.e. h + 19 carries out of bit 255. */
    q = (h.v[0] + 19) >> 51;
    q = (h.v[1] + q) >> 51;
    q = (h.v[2] + q) >> 51;
    q = (h.v[3] + q) >> 51;
    q = (h.v[4] + q) >> 51;
    h.v[0] += 19 * q;
    h.v[1] += h.v[0] >> 51, h.v[0] &= FE51_MASK;
    h.v[2] += h.v[1] >> 51, h.v[1] &= FE51_MASK;
    h.v[3] += h.v[2] >> 51, h.v[2] &= FE51_MASK;
    h.v[4] += h.v[3] >> 51, h.v[3] &= FE51_MASK;
    h.v[4] &= FE51_MASK;
    uint64_t w[4] = {h.v[0] | (h.v[1] << 51), (h.v[1] >> 13) | (h.v[2] << 38),
                     (h.v[2] >> 26) | (h.v[3] << 25), (h.v[3] >> 39) | (h.v[4] << 12)};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            s[8 * i + j] = (uint8_t)(w[i] >> (8 * j));
}

#include "fe_limbwise.h"

#endif
