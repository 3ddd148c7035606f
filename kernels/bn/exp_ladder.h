/* Exponentiation ladders shared by per-ISA kernels that supply only their
 * own Montgomery multiply and square (kernels/bn/sparc, kernels/bn/s390x).
 * Header only: each kernel instantiates it with its own functions, which the
 * compiler then calls directly. Same contract as cs_bn_kernel.exp. */
#ifndef CRYPTOSHIM_BN_EXP_LADDER_H
#define CRYPTOSHIM_BN_EXP_LADDER_H

#include <string.h>

#include "bn_kernel.h"
#include "scratch.h"
#include "../ct.h"

typedef void (*cs_ladder_mul_fn)(cs_limb *r, const cs_limb *a, const cs_limb *b,
                                 const cs_mont *mont);
typedef void (*cs_ladder_sqr_fn)(cs_limb *r, const cs_limb *a, const cs_mont *mont);

/* Zeroes n limbs of secret scratch so the stores are not optimised away. */
static inline void cs_ladder_wipe(cs_limb *p, size_t n)
{
    cs_wipe(p, n * sizeof *p);
}

/* Bits [pos, pos + w) of e, zero above ebits (pos, w, ebits public). */
static inline unsigned cs_ladder_bits(const cs_limb *e, size_t ebits, size_t pos, unsigned w)
{
    unsigned v = 0;
    for (unsigned k = w; k-- > 0;) {
        size_t b = pos + k;
        cs_limb bit = b < ebits ? (e[b / CS_LIMB_BITS] >> (b % CS_LIMB_BITS)) & 1 : 0;
        v = (v << 1) | (unsigned)bit;
    }
    return v;
}

/* r = tbl[idx] for a table of count entries of n limbs: every entry is read
 * and combined under an all-ones/all-zeros mask, so the addresses touched do
 * not depend on idx. */
static inline void cs_ladder_select(cs_limb *r, const cs_limb *tbl, size_t count, unsigned idx,
                                    size_t n)
{
    memset(r, 0, n * sizeof(cs_limb));
    for (size_t i = 0; i < count; i++) {
        cs_limb mask = (cs_limb)cs_ct_eq_mask(i, idx);
        const cs_limb *t = tbl + i * n;
        for (size_t j = 0; j < n; j++)
            r[j] |= t[j] & mask;
    }
}

/* The kernel's mont_mul entry on top of its own mul: then the product it
 * left on the stack is wiped. */
static inline void cs_ladder_mul_entry(cs_ladder_mul_fn mul, cs_limb *r, const cs_limb *a,
                                       const cs_limb *b, const cs_mont *mont)
{
    mul(r, a, b, mont);
    cs_wipe_stack(CS_BN_WIPE_STACK);
}

/* r = a^e mod m (ordinary form in and out), with the kernel's mul and sqr.
 * Secret e (consttime): fixed 4- or 5-bit windows over all ebits bits, a
 * masked table read and a multiply for every window. Public e: sliding
 * window over odd powers. The table lives in per-thread scratch; the stack
 * the multiplications used is wiped after them. Returns 0, or -1 for
 * unsupported sizes or without scratch. */
static inline int cs_ladder_exp(cs_ladder_mul_fn mul, cs_ladder_sqr_fn sqr, cs_limb *r,
                                const cs_limb *a, const cs_limb *e, size_t ebits,
                                const cs_mont *mont, int consttime)
{
    size_t n = mont->n;
    if (n < 1 || n > CS_BN_MAX_LIMBS || ebits > CS_BN_MAX_EXP_BITS)
        return -1;
    unsigned w = consttime ? (ebits > 256 ? 5 : 4) : (ebits > 512 ? 5 : ebits > 64 ? 4 : 1);
    size_t count = (size_t)1 << w;
    cs_limb *tbl = cs_scratch_take(count * n * sizeof(cs_limb));
    if (!tbl)
        return -1;
    cs_limb am[CS_BN_MAX_LIMBS], acc[CS_BN_MAX_LIMBS], tmp[CS_BN_MAX_LIMBS];

    mul(am, a, mont->rr, mont);
    memcpy(acc, mont->one, n * sizeof(cs_limb));
    if (consttime) {
        /* tbl[i] = am^i, i < count. */
        memcpy(tbl, mont->one, n * sizeof(cs_limb));
        memcpy(tbl + n, am, n * sizeof(cs_limb));
        for (size_t i = 2; i < count; i++) {
            if (i & 1)
                mul(tbl + i * n, tbl + (i - 1) * n, am, mont);
            else
                sqr(tbl + i * n, tbl + (i / 2) * n, mont);
        }
        size_t windows = (ebits + w - 1) / w;
        for (size_t k = windows; k-- > 0;) {
            if (k + 1 < windows)
                for (unsigned s = 0; s < w; s++)
                    sqr(acc, acc, mont);
            cs_ladder_select(tmp, tbl, count, cs_ladder_bits(e, ebits, k * w, w), n);
            mul(acc, acc, tmp, mont);
        }
    } else {
        /* tbl[i] = am^(2i+1), i < count/2. */
        size_t odd = count / 2;
        memcpy(tbl, am, n * sizeof(cs_limb));
        if (odd > 1) {
            sqr(tmp, am, mont);
            for (size_t i = 1; i < odd; i++)
                mul(tbl + i * n, tbl + (i - 1) * n, tmp, mont);
        }
        size_t i = ebits;
        int started = 0;
        while (i > 0) {
            if (!cs_ladder_bits(e, ebits, i - 1, 1)) {
                if (started)
                    sqr(acc, acc, mont);
                i--;
                continue;
            }
            size_t lo = i > w ? i - w : 0;
            while (!cs_ladder_bits(e, ebits, lo, 1))
                lo++;
            unsigned v = cs_ladder_bits(e, ebits, lo, (unsigned)(i - lo));
            if (started) {
                for (size_t s = lo; s < i; s++)
                    sqr(acc, acc, mont);
                mul(acc, acc, tbl + (v >> 1) * n, mont);
            } else {
                memcpy(acc, tbl + (v >> 1) * n, n * sizeof(cs_limb));
                started = 1;
            }
            i = lo;
        }
    }
    /* Leave Montgomery form: multiply by plain 1. */
    memset(tmp, 0, n * sizeof(cs_limb));
    tmp[0] = 1;
    mul(r, acc, tmp, mont);
    cs_scratch_give(tbl, count * n * sizeof(cs_limb));
    cs_ladder_wipe(am, n);
    cs_ladder_wipe(acc, n);
    cs_ladder_wipe(tmp, n);
    cs_wipe_stack(CS_BN_WIPE_STACK);
    return 0;
}

#endif
