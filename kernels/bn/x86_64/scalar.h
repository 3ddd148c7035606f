/* Scalar 64-bit Montgomery for the MULX and ADX kernels (internal). */
#ifndef CRYPTOSHIM_BN_X86_SCALAR_H
#define CRYPTOSHIM_BN_X86_SCALAR_H

#include "../../ct.h"
#include "../limbs.h"

#define SCALAR_MAX_BITS 8192

/* t[0..n-1] += a[0..n-1] * b; returns the carry word out of t[n-1]. */
typedef uint64_t scalar_row_fn(uint64_t *t, const uint64_t *a, uint64_t b, size_t n);

/* r = a*b/2^(64n) mod m, fully reduced, constant time in the values (one
 * masked final subtraction); r may alias a or b. */
void scalar_mont(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                 uint64_t n0, size_t n, scalar_row_fn *row);

/* r = t mod m for t (n+1 words) below 2m: one subtraction kept by mask. */
void scalar_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n);

/* The scalar kernels' constant-time table read (cs_bn_select_fn, one
 * lane), 128-bit loads under masks: at 2048 bits 32 entries cost about a
 * multiplication in plain C. At most 64 entries. */
void scalar_select(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                   const unsigned *idx);

/* The ADX kernel's rows in assembly (adx_mont.S): t (n+2 words, zero on
 * entry) = a*b/2^(64n), below 2m, in t[0..n]. */
void cs_adx_mont_rows(uint64_t *t, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                      uint64_t n0, size_t n);

/* The ADX squaring's parts (adx_mont.S): t (2n words, zero on entry) = the
 * cross products a_i a_j, i < j, once (n >= 2); t = 2t + the squares a_i^2
 * (then a^2); and the reduction of t
 * (2n+1 words, t[2n] zero, below m 2^(64n)) to t[n..2n] = t/2^(64n) mod m,
 * below 2m. */
void cs_adx_sqr_cross(uint64_t *t, const uint64_t *a, size_t n);
void cs_adx_sqr_diag(uint64_t *t, const uint64_t *a, size_t n);
/* r (n words, apart from t) = t mod m for t (n+1 words) below 2m, as
 * scalar_reduce, in assembly. */
void cs_adx_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n);
void cs_adx_redc(uint64_t *t, const uint64_t *m, uint64_t n0, size_t n);

/* The ADX kernel's block forms (adx_blk.S), n a multiple of 8: t (2n
 * words, zero on entry) = a*b; t (2n words, zero on entry) = the cross
 * products a_k a_l, k < l, once; and the reduction of t (2n+1 words, below
 * m 2^(64n)) to t[n..2n] = t/2^(64n) mod m, below 2m, as cs_adx_redc. */
void cs_adx_blk_mul(uint64_t *t, const uint64_t *a, const uint64_t *b, size_t n);
void cs_adx_blk_sqr_cross(uint64_t *t, const uint64_t *a, size_t n);
void cs_adx_blk_redc(uint64_t *t, const uint64_t *m, uint64_t n0, size_t n);
/* As cs_adx_sqr_diag and cs_adx_reduce, for n a multiple of 8. */
void cs_adx_blk_diag(uint64_t *t, const uint64_t *a, size_t n);
void cs_adx_blk_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n);

#endif
