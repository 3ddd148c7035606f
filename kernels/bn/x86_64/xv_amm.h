/* What the column-serial almost-Montgomery kernels on 256-bit vectors
 * (avx2.c, ifma.c) share: the carry pass that ends a product and the
 * entries over their amm_core. Included after amm_core is defined, by
 * files built with AVX2 (at least). Internal header. */
#ifndef CRYPTOSHIM_BN_X86_XV_AMM_H
#define CRYPTOSHIM_BN_X86_XV_AMM_H

#include <immintrin.h>

#include "xv.h"

/* r (K = 4 nv digits of w bits, normalised) = the columns in VL, whose
 * lowest (followed in scalar) is x instead, with the carries passed up; t:
 * the caller's 32-byte aligned room for K words (a VLA here would cost a
 * stack save and restore at run-time sizes). */
static inline __attribute__((always_inline)) void
xv_amm_carry(uint64_t *r, uint64_t *t, const __m256i *VL, uint64_t x, const size_t nv,
             const size_t K, const unsigned w)
{
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++)
        _mm256_store_si256((__m256i *)(t + 4 * v), VL[v]);
    t[0] = x;
    uint64_t c = 0;
    for (size_t j = 0; j < K; j++) {
        uint64_t s = t[j] + c;
        r[j] = s & ((1ull << w) - 1);
        c = s >> w;
    }
}

/* amm_NV: the multiplication (cs_bn_mul_fn) for NV vectors; amm_any: for
 * any size, its vector count at run time. */
#define XV_AMM_FIXED(NV)                                                                   \
    static void amm_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        amm_core(r, a, b, c->m, c->n0, NV, c->iters);                                     \
    }
#define XV_AMM_ANY                                                                         \
    static void amm_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        amm_core(r, a, b, c->m, c->n0, c->words / 4, c->iters);                           \
    }

#endif
