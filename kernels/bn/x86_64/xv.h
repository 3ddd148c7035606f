/* Shared core of the x86-64 digit kernels: numbers held as `words` digits
 * of w bits (w = 52 for AVX-512 IFMA, 49 for FMA, 28 for AVX2, 64 for the
 * scalar MULX/ADX kernels) and "almost Montgomery" multiplication with
 * R' = 2^(w*iters), kept below 2m between operations. The kernels supply
 * the multiplication; the conversions and R' constants live in xv_digits.c,
 * the exponentiation in the engine (../engine.c). Internal header. */
#ifndef CRYPTOSHIM_BN_X86_XV_H
#define CRYPTOSHIM_BN_X86_XV_H

#include "../../ct.h"
#include "../engine.h"

/* Largest digit count: 4096 bits at 28 bits a digit, plus 2 bits of headroom,
 * rounded up to whole 4-lane vectors. */
#define XV_MAXK 148
_Static_assert(XV_MAXK <= CS_BN_MAX_WORDS, "digits must fit cs_bn_prep");
/* Largest modulus of the vector kernels. */
#define XV_MAX_BITS 4096

/* Fills p for mont with w-bit digits (w = 64: plain limbs, words = n): digit
 * count, n0, m, R'^2 and R'^2/R in digits, the multiplication amm and
 * squaring asqr (which the kernel may then specialise) and the table read
 * xv_select_avx2. Returns 0, or -1 if the modulus needs more than XV_MAXK
 * digits. Public data only. */
int xv_prepare(cs_bn_prep *p, const cs_mont *mont, unsigned w, cs_bn_mul_fn *amm,
               cs_bn_mul_fn *asqr);

/* The ops' load and store: a (p->n limbs, below m) into p->words digits;
 * normalised digits (value at most m) back into limbs reduced below m. */
void xv_load(cs_limb *x, const cs_limb *a, const cs_bn_prep *p);
void xv_store(cs_limb *r, const cs_limb *x, const cs_bn_prep *p);

/* Constant-time table read with AVX2 (xv_select_avx2.c): words a multiple
 * of 4, the table 32-byte aligned. */
void xv_select_avx2(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx);

/* The IFMA kernel's paired arithmetic (ifma_x2.c): two moduli of the same
 * digit count and digits used, 987..1038, 1455..1662 or 1871..2078 bits,
 * else its prepare refuses. */
extern const cs_bn_pair_ops cs_ifma_pair;

/* p = the digits of d0 and d1 interleaved (p[2j + h] is digit j of half
 * h), nd digits each: the joined form of the AVX-512 paired kernels. */
static inline void xv_interleave(cs_limb *p, const cs_limb *d0, const cs_limb *d1, size_t nd)
{
    for (size_t j = 0; j < nd; j++)
        p[2 * j] = d0[j], p[2 * j + 1] = d1[j];
}

/* d0, d1 = the halves of the interleaved p (xv_interleave), nd digits each. */
static inline void xv_deinterleave(cs_limb *d0, cs_limb *d1, const cs_limb *p, size_t nd)
{
    for (size_t j = 0; j < nd; j++)
        d0[j] = p[2 * j], d1[j] = p[2 * j + 1];
}

/* Defines digit kernel VAR (CS_BN_KERNEL, from 512 bits, with exp2): its
 * PREPARE (over xv_prepare), xv_load, xv_store and the paired arithmetic
 * PAIR (NULL: none, X2 0). */
#define XV_KERNEL(VAR, NAME, FEATURES, MAX_BITS, PREPARE, PAIR, X2)                             \
    CS_BN_KERNEL_OPS(VAR, NAME, FEATURES, 512, MAX_BITS, PREPARE, xv_load, xv_store, PAIR, 1, X2)

#endif
