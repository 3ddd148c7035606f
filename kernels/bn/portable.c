/* Portable C Montgomery arithmetic: the kernel every CPU can run (64-bit
 * limbs with a 128-bit product type, 32-bit limbs otherwise). Products are
 * formed whole and then reduced (separated operand scanning), so squaring
 * can skip the repeated cross products. Nothing here branches on or indexes
 * memory by number values. The exponentiation is the engine's (engine.c). */
#include <string.h>

#include "engine.h"
#include "limbs.h"

#define W CS_LIMB_BITS


/* t[0..2n) = a*b (n limbs each). */
static void mul_full(cs_limb *t, const cs_limb *a, const cs_limb *b, size_t n)
{
    cs_limb carry = 0;
    cs_limb b0 = b[0];
    for (size_t j = 0; j < n; j++) {
        cs_dlimb p = (cs_dlimb)a[j] * b0 + carry;
        t[j] = (cs_limb)p;
        carry = (cs_limb)(p >> W);
    }
    t[n] = carry;
    for (size_t i = 1; i < n; i++) {
        cs_limb bi = b[i];
        cs_limb *ti = t + i;
        carry = 0;
#pragma GCC unroll 4
        for (size_t j = 0; j < n; j++) {
            cs_dlimb p = (cs_dlimb)a[j] * bi + ti[j] + carry;
            ti[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        ti[n] = carry;
    }
}

/* t[0..2n) = a^2: each cross product once, doubled, plus the squares. */
static void sqr_full(cs_limb *t, const cs_limb *a, size_t n)
{
    t[0] = 0;
    t[2 * n - 1] = 0;
    if (n > 1) {
        /* Row 0 writes t[1..n], each later row i adds a[i]*a[i+1..n) at t[2i+1..]. */
        cs_limb carry = 0, a0 = a[0];
        for (size_t j = 1; j < n; j++) {
            cs_dlimb p = (cs_dlimb)a[j] * a0 + carry;
            t[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        t[n] = carry;
        for (size_t i = 1; i + 1 < n; i++) {
            cs_limb ai = a[i];
            cs_limb *ti = t + 2 * i + 1;
            const cs_limb *aj = a + i + 1;
            size_t len = n - i - 1;
            carry = 0;
#pragma GCC unroll 4
            for (size_t j = 0; j < len; j++) {
                cs_dlimb p = (cs_dlimb)aj[j] * ai + ti[j] + carry;
                ti[j] = (cs_limb)p;
                carry = (cs_limb)(p >> W);
            }
            ti[len] = carry;
        }
    }
    /* Double the cross products and add the diagonal. */
    cs_limb shift = 0, carry = 0;
    for (size_t i = 0; i < n; i++) {
        cs_dlimb sq = (cs_dlimb)a[i] * a[i];
        cs_limb lo = t[2 * i], hi = t[2 * i + 1];
        cs_limb dlo = (lo << 1) | shift;
        cs_limb dhi = (hi << 1) | (lo >> (W - 1));
        shift = hi >> (W - 1);
        cs_dlimb s = (cs_dlimb)dlo + (cs_limb)sq + carry;
        t[2 * i] = (cs_limb)s;
        s = (cs_dlimb)dhi + (cs_limb)(sq >> W) + (cs_limb)(s >> W);
        t[2 * i + 1] = (cs_limb)s;
        carry = (cs_limb)(s >> W);
    }
}

/* r = x - m if x + top*R >= m else x, without branching on the values;
 * x + top*R < 2m. r may alias x. */
static void cond_sub(cs_limb *r, const cs_limb *x, cs_limb top, const cs_limb *m, size_t n)
{
    cs_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_dlimb d = (cs_dlimb)x[j] - m[j] - borrow;
        borrow = (cs_limb)(d >> W) & 1;
    }
    cs_limb mask = (cs_limb)0 - ((top | (borrow ^ 1)) & 1);
    borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_dlimb d = (cs_dlimb)x[j] - (m[j] & mask) - borrow;
        r[j] = (cs_limb)d;
        borrow = (cs_limb)(d >> W) & 1;
    }
}

/* r = t/R mod m for t < m*R (2n limbs, destroyed), m odd of n limbs with
 * n0 = -m^-1 mod 2^W (from a context or a cs_mont: the same fields).
 * Montgomery reduction one limb at a time, then one constant-time
 * conditional subtraction. A macro so each caller reads its own struct's
 * fields, which keeps the inner loop free of spills. */
#define REDC(r, t, c) redc_inline(r, t, (c)->m, (c)->n0, (c)->n)
static inline __attribute__((always_inline)) void redc_inline(cs_limb *r, cs_limb *t,
                                                              const cs_limb *m, cs_limb n0,
                                                              size_t n)
{
    cs_limb top = 0;
    for (size_t i = 0; i < n; i++) {
        cs_limb *ti = t + i;
        cs_limb q = ti[0] * n0, carry = 0;
#pragma GCC unroll 4
        for (size_t j = 0; j < n; j++) {
            cs_dlimb p = (cs_dlimb)q * m[j] + ti[j] + carry;
            ti[j] = (cs_limb)p;
            carry = (cs_limb)(p >> W);
        }
        cs_dlimb s = (cs_dlimb)ti[n] + carry + top;
        ti[n] = (cs_limb)s;
        top = (cs_limb)(s >> W);
    }
    cond_sub(r, t + n, top, m, n);
}

/* The engine's multiplication (cs_bn_mul_fn): r = a*b/R mod m, fully
 * reduced, over the context's plain limbs (R' = R). */
static void portable_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *p = ctx;
    cs_limb t[2 * CS_BN_MAX_LIMBS];
    mul_full(t, a, b, p->n);
    REDC(r, t, p);
}

/* The engine's squaring (b is a). */
static void portable_sqr(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *p = ctx;
    cs_limb t[2 * CS_BN_MAX_LIMBS];
    sqr_full(t, a, p->n);
    REDC(r, t, p);
}

/* See bn_kernel.h: the squaring itself, public values (no wipe). */
void cs_mont_sqr_public(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    cs_limb t[2 * CS_BN_MAX_LIMBS];
    sqr_full(t, a, mont->n);
    REDC(r, t, mont);
}

/* See portable.h. */
void cs_bn_prepare_limbs(cs_bn_prep *p, const cs_mont *mont, cs_bn_mul_fn *mul,
                         cs_bn_mul_fn *sqr)
{
    size_t n = mont->n;
    p->words = p->iters = n;
    p->w = W;
    p->n0 = mont->n0;
    p->mul = mul;
    p->sqr = sqr;
    memcpy(p->m, mont->m, n * sizeof(cs_limb));
    memcpy(p->rr, mont->rr, n * sizeof(cs_limb));
    memcpy(p->rx, mont->one, n * sizeof(cs_limb)); /* R'^2/R = R mod m */
}

/* See portable.h: limbs are the kernel form. */
void cs_bn_copy_limbs(cs_limb *x, const cs_limb *a, const cs_bn_prep *p)
{
    memcpy(x, a, p->n * sizeof(cs_limb));
}

/* The reference kernel serves every size (1 bit up); the shim sends it
 * CS_BN_MIN_BITS and up only. Its squaring is its own: the context's. */
static int portable_prepare(cs_bn_prep *p, const cs_mont *mont)
{
    cs_bn_prepare_limbs(p, mont, portable_mul, portable_sqr);
    p->max_window = 6; /* its cost model's choice at 3072 and 4096 bits */
    return 0;
}

CS_BN_KERNEL_OPS(cs_bn_portable, "portable", 0, 1, CS_BN_MAX_BITS, portable_prepare,
                 cs_bn_copy_limbs, cs_bn_copy_limbs, NULL, 0, 0);
