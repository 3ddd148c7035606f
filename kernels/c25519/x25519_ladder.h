/* Template (curve_impl.h): static int c25519_x25519(out, scalar, u), the
 * RFC 7748 Montgomery ladder over the including source's field, with
 * cs_c25519_impl.x25519's contract; and the helpers the Edwards template
 * shares: c25519_fe_sqn (repeated squaring), c25519_fe_pow_2_250_1 and
 * c25519_fe_invert.
 *
 * Fused steps a field header may provide (FE_HAVE_<NAME> defined):
 *   FE_HAVE_SQN:    fe_sqn(h, f, n)      h = f^(2^n), n >= 1
 *   FE_HAVE_LADDER_STEP: fe_ladder_step(x2, z2, x3, z3, x1): one ladder
 *                   step on the (already swapped) pair, as below
 *   FE_HAVE_LADDER: fe_ladder(x2, z2, x1, k): the whole ladder over the
 *                   clamped scalar k (bits 254 down to 0), leaving the
 *                   projective result in x2:z2; constant time in k and x1. */
#ifndef CRYPTOSHIM_C25519_X25519_LADDER_H
#define CRYPTOSHIM_C25519_X25519_LADDER_H

#include <stdint.h>
#include <string.h>

#ifdef __SIZEOF_INT128__
#include "modinv.h" /* c25519_inv_bytes: the ladder's final division */
#endif

/* h = f^(2^n), n >= 1. */
static inline void c25519_fe_sqn(fe *h, const fe *f, int n)
{
#ifdef FE_HAVE_SQN
    fe_sqn(h, f, n);
#else
    fe_sq(h, f);
    for (int i = 1; i < n; i++)
        fe_sq(h, h);
#endif
}

/* h = z^(2^(5n) - 1) from x = z^(2^n - 1): the step the exponent chains
 * below take twice (n = 10, 50). h may alias x. */
static void c25519_fe_pow_5n(fe *h, const fe *x, int n)
{
    fe a, b;
    c25519_fe_sqn(&a, x, n);
    fe_mul(&a, &a, x);         /* 2^2n - 1 */
    c25519_fe_sqn(&b, &a, 2 * n);
    fe_mul(&b, &b, &a);        /* 2^4n - 1 */
    c25519_fe_sqn(&b, &b, n);
    fe_mul(h, &b, x);          /* 2^5n - 1 */
}

/* h = z^(2^250 - 1) and z11 = z^11: the head both chains share, that of
 * the inversion below and ed25519_ops.h's z^((p - 5)/8). */
static void c25519_fe_pow_2_250_1(fe *h, fe *z11, const fe *z)
{
    fe t, z9;
    fe_sq(&t, z);                /* 2 */
    c25519_fe_sqn(&z9, &t, 2);   /* 8 */
    fe_mul(&z9, &z9, z);         /* 9 */
    fe_mul(z11, &z9, &t);        /* 11 */
    fe_sq(&t, z11);              /* 22 */
    fe_mul(&t, &t, &z9);         /* 2^5 - 1 */
    c25519_fe_sqn(h, &t, 5);
    fe_mul(h, h, &t);            /* 2^10 - 1 */
    c25519_fe_pow_5n(h, h, 10);  /* 2^50 - 1 */
    c25519_fe_pow_5n(h, h, 50);  /* 2^250 - 1 */
}

/* out = z^(p-2) = 1/z (0 for z = 0), by a fixed chain of 254 squarings
 * and 11 multiplications (unused where modinv.h serves every division). */
static __attribute__((unused)) void c25519_fe_invert(fe *out, const fe *z)
{
    fe t, z11;
    c25519_fe_pow_2_250_1(&t, &z11, z);
    c25519_fe_sqn(&t, &t, 5); /* 2^255 - 2^5 */
    fe_mul(out, &t, &z11);    /* 2^255 - 21 = p - 2 */
}

#ifndef FE_HAVE_LADDER
/* One step of the RFC 7748 ladder: (x2:z2) doubled, (x3:z3) = (x2:z2) +
 * (x3:z3) with difference x1. Doubling uses (AA - BB) * (BB + 121666 (AA -
 * BB)), which equals RFC 7748's E * (AA + 121665 E). */
static inline void c25519_ladder_step(fe *x2, fe *z2, fe *x3, fe *z3, const fe *x1)
{
#ifdef FE_HAVE_LADDER_STEP
    fe_ladder_step(x2, z2, x3, z3, x1);
#else
    fe a, b, c, d, da, cb, aa, bb, e;
    fe_add(&a, x2, z2);
    fe_sub(&b, x2, z2);
    fe_add(&c, x3, z3);
    fe_sub(&d, x3, z3);
    fe_mul(&da, &d, &a);
    fe_mul(&cb, &c, &b);
    fe_sq(&aa, &a);
    fe_sq(&bb, &b);
    fe_add(x3, &da, &cb);
    fe_sq(x3, x3);
    fe_sub(z3, &da, &cb);
    fe_sq(z3, z3);
    fe_mul(z3, z3, x1);
    fe_mul(x2, &aa, &bb);
    fe_sub(&e, &aa, &bb);
    fe_mul121666(&a, &e);
    fe_add(&a, &a, &bb);
    fe_mul(z2, &e, &a);
#endif
}

/* (x2:z2) doubled. */
static inline void c25519_ladder_double(fe *x2, fe *z2)
{
    fe a, b, aa, bb, e;
    fe_add(&a, x2, z2);
    fe_sub(&b, x2, z2);
    fe_sq(&aa, &a);
    fe_sq(&bb, &b);
    fe_mul(x2, &aa, &bb);
    fe_sub(&e, &aa, &bb);
    fe_mul121666(&a, &e);
    fe_add(&a, &a, &bb);
    fe_mul(z2, &e, &a);
}

/* The ladder over the clamped k: bits 254..3 by steps, then the three
 * low bits (zero after clamping) by doublings. The swap bit comes from k
 * by shifts and masks; the byte index is the public loop position. */
static void fe_ladder(fe *x2, fe *z2, const fe *x1, const uint8_t k[32])
{
    fe x3, z3;
    unsigned swap = 0;
    fe_1(x2);
    fe_0(z2);
    fe_copy(&x3, x1);
    fe_1(&z3);
    for (int pos = 254; pos >= 3; pos--) {
        unsigned bit = (k[pos >> 3] >> (pos & 7)) & 1;
        swap ^= bit;
        fe_cswap(x2, &x3, swap);
        fe_cswap(z2, &z3, swap);
        swap = bit;
        c25519_ladder_step(x2, z2, &x3, &z3, x1);
    }
    fe_cswap(x2, &x3, swap);
    fe_cswap(z2, &z3, swap);
    for (int i = 0; i < 3; i++)
        c25519_ladder_double(x2, z2);
}
#endif

/* Overwrites n bytes of a secret in a way the compiler keeps. */
static inline void c25519_wipe(void *p, size_t n)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (n--)
        *v++ = 0;
}

/* RFC 7748 X25519(scalar, u): cs_c25519_impl.x25519. Returns 1, or 0 when
 * out is all zero; that test is arithmetic, not a branch. */
static int c25519_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    uint8_t k[32];
    fe x1, x2, z2;
    unsigned acc = 0;
    memcpy(k, scalar, 32);
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    fe_frombytes(&x1, u);
    fe_ladder(&x2, &z2, &x1, k);
#ifdef __SIZEOF_INT128__
    uint8_t zb[32];
    fe_tobytes(zb, &z2);
    c25519_inv_bytes(zb, zb);
    fe_frombytes(&z2, zb);
    c25519_wipe(zb, sizeof(zb));
#else
    c25519_fe_invert(&z2, &z2);
#endif
    fe_mul(&x2, &x2, &z2);
    fe_tobytes(out, &x2);
    c25519_wipe(k, sizeof(k));
    for (int i = 0; i < 32; i++)
        acc |= out[i];
    return (int)(1 & ~((acc - 1) >> 8));
}

#endif
