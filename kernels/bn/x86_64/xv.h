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
 * count, n0, m, R'^2 and R'^2/R in digits, and the multiplication amm and
 * squaring asqr (which the kernel may then specialise). Returns 0, or -1 if
 * the modulus needs more than XV_MAXK digits. Public data only. */
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

#endif
