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

/* The ADX kernel's rows in assembly (adx_mont.S): t (n+2 words, zero on
 * entry) = a*b/2^(64n), below 2m, in t[0..n]. */
void cs_adx_mont_rows(uint64_t *t, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                      uint64_t n0, size_t n);

#endif
