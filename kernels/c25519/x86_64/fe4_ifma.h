/* Four field elements (mod p = 2^255 - 19) at a time, one per 64-bit lane
 * of a ymm register, products by AVX-512 IFMA (vpmadd52luq/huq on ymm,
 * AVX512VL): the field of the "x86_64-ifma" table's ladder
 * (ladder_ifma.c) and double-scalar multiplication (double_mul_ifma.c).
 *
 * Representation (fe4): five ymm registers, register i holding limb i
 * (radix 2^51) of the four lanes' elements. IFMA reads only bits 0..51 of
 * each multiplicand, so every value that enters a product has all limbs
 * below 2^52:
 * - a product's columns (fe4_mul_cols) are below 2^61; fe4_mul carries
 *   them (one parallel round) to limbs below 2^51 + 2^16 (limb 0; the
 *   others below 2^51 + 2^11);
 * - a sum, or a difference plus 2^11 p (fe4_addsub: limbs above 2^61), of
 *   two values with limbs below 2^61 (carried or a product's columns) is
 *   below 2^63 and gets one carry round, ending below 2^51 + 2^17.
 * Nothing here branches on or indexes by the values. */
#ifndef CRYPTOSHIM_C25519_FE4_IFMA_H
#define CRYPTOSHIM_C25519_FE4_IFMA_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../../ct.h"

#define IFMA_INLINE static inline __attribute__((always_inline))
#define M51 ((1ULL << 51) - 1)

typedef struct {
    __m256i l[5];
} fe4;

/* The lanes of v in the order a, b, c, d (vpermq's immediate). */
#define PERM(v, a, b, c, d) _mm256_permute4x64_epi64((v), (a) | (b) << 2 | (c) << 4 | (d) << 6)

/* vpblendd's immediate taking the 64-bit lanes whose flag is 1. */
#define LANES(a, b, c, d) ((a) * 0x03 | (b) * 0x0c | (c) * 0x30 | (d) * 0xc0)

/* h = c with one parallel carry round (2^255 = 19): columns c below 2^62 give
 * limbs below 2^51 + 2^11, limb 0 below 2^51 + 19 * 2^11; below 2^63, limbs
 * below 2^51 + 2^12, limb 0 below 2^51 + 19 * 2^12. */
IFMA_INLINE void fe4_carry(fe4 *h, const __m256i c[5])
{
    const __m256i m = _mm256_set1_epi64x((long long)M51);
    __m256i k0 = _mm256_srli_epi64(c[0], 51), k1 = _mm256_srli_epi64(c[1], 51);
    __m256i k2 = _mm256_srli_epi64(c[2], 51), k3 = _mm256_srli_epi64(c[3], 51);
    __m256i k4 = _mm256_srli_epi64(c[4], 51);
    h->l[0] = _mm256_add_epi64(_mm256_and_si256(c[0], m), _mm256_mul_epu32(k4, _mm256_set1_epi64x(19)));
    h->l[1] = _mm256_add_epi64(_mm256_and_si256(c[1], m), k0);
    h->l[2] = _mm256_add_epi64(_mm256_and_si256(c[2], m), k1);
    h->l[3] = _mm256_add_epi64(_mm256_and_si256(c[3], m), k2);
    h->l[4] = _mm256_add_epi64(_mm256_and_si256(c[4], m), k3);
}

/* x * 19 for x below 2^60: 16x + 2x + x. */
IFMA_INLINE __m256i fe4_mul19(__m256i x)
{
    return _mm256_add_epi64(_mm256_add_epi64(x, _mm256_slli_epi64(x, 4)), _mm256_add_epi64(x, x));
}

/* c = f * g + init, lane by lane (limbs of f, g below 2^52, of init below
 * 2^52), not carried. f_i g_j = lo + 2^52 hi: lo goes to column i + j, 2 hi
 * to column i + j + 1, columns from 5 up fold into 0..4 times 19. Four
 * accumulators per output limb m keep each IFMA chain at most five long:
 * x (lo, column m), y (hi, from column m - 1), w (lo, column m + 5), v (hi,
 * from column m + 4); limb m = x + 2y + 19 (w + 2v), below 2^60.2 + 2^52. */
IFMA_INLINE void fe4_mul_cols(__m256i c[5], const fe4 *f, const fe4 *g, const __m256i init[5])
{
    __m256i x[5], y[5], w[5], v[5];
    #pragma GCC unroll 5
    for (int m = 0; m < 5; m++) {
        x[m] = init[m];
        y[m] = w[m] = v[m] = _mm256_setzero_si256();
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        #pragma GCC unroll 5
        for (int j = 0; j < 5; j++) {
            int k = i + j;
            if (k < 5)
                x[k] = _mm256_madd52lo_epu64(x[k], f->l[i], g->l[j]);
            else
                w[k - 5] = _mm256_madd52lo_epu64(w[k - 5], f->l[i], g->l[j]);
            if (k + 1 < 5)
                y[k + 1] = _mm256_madd52hi_epu64(y[k + 1], f->l[i], g->l[j]);
            else
                v[k - 4] = _mm256_madd52hi_epu64(v[k - 4], f->l[i], g->l[j]);
        }
    }
    #pragma GCC unroll 5
    for (int m = 0; m < 5; m++) {
        __m256i t = _mm256_add_epi64(w[m], _mm256_add_epi64(v[m], v[m]));
        c[m] = _mm256_add_epi64(_mm256_add_epi64(x[m], _mm256_add_epi64(y[m], y[m])), fe4_mul19(t));
    }
}

/* h = f * g + init as fe4_mul_cols, carried. */
IFMA_INLINE void fe4_mul(fe4 *h, const fe4 *f, const fe4 *g, const __m256i init[5])
{
    __m256i c[5];
    fe4_mul_cols(c, f, g, init);
    fe4_carry(h, c);
}

/* The lanes' 2p, limb by limb. */
static const uint64_t fe4_two_p[5] = {(1ULL << 52) - 38, (1ULL << 52) - 2, (1ULL << 52) - 2,
                                      (1ULL << 52) - 2, (1ULL << 52) - 2};

/* h = f + g, and g - f + 2^11 p in the lanes of the vpblendd mask dmask
 * (LANES; a compile-time constant), carried (limbs of f and g below 2^61;
 * of h below 2^51 + 2^17). In those lanes ~f = 2^64 - 1 - f, so g +
 * (2^11 p + 1) + ~f wraps to g - f + 2^11 p, whose limbs (2^62 - 19 * 2^11,
 * then 2^62 - 2^11) exceed any f's: one add and one xor a limb, no blend
 * (whose immediate clang wants literal even in an always_inline body). */
IFMA_INLINE void fe4_addsub(fe4 *h, const fe4 *f, const fe4 *g, int dmask)
{
    const __m256i neg = _mm256_set_epi64x(-(long long)(dmask >> 6 & 1), -(long long)(dmask >> 4 & 1),
                                          -(long long)(dmask >> 2 & 1), -(long long)(dmask & 1));
    __m256i c[5];
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        long long b = (i == 0 ? (1LL << 62) - (19LL << 11) : (1LL << 62) - (1LL << 11)) + 1;
        __m256i gb = _mm256_add_epi64(g->l[i], _mm256_and_si256(_mm256_set1_epi64x(b), neg));
        c[i] = _mm256_add_epi64(gb, _mm256_xor_si256(f->l[i], neg));
    }
    fe4_carry(h, c);
}

/* u = x (4x64, any value below 2^256) in radix 2^51, bit 255 folded
 * (2^255 = 19): limbs below 2^51 + 19. */
IFMA_INLINE void fe4_to51(uint64_t u[5], const uint64_t x[4])
{
    u[0] = x[0] & M51;
    u[1] = (x[0] >> 51 | x[1] << 13) & M51;
    u[2] = (x[1] >> 38 | x[2] << 26) & M51;
    u[3] = (x[2] >> 25 | x[3] << 39) & M51;
    u[4] = x[3] >> 12;
    u[0] += 19 * (u[4] >> 51);
    u[4] &= M51;
}

/* h's lanes 0..3 = the 4x64 values a, b, c, d (each below 2^256). */
IFMA_INLINE void fe4_set(fe4 *h, const uint64_t a[4], const uint64_t b[4], const uint64_t c[4],
                         const uint64_t d[4])
{
    uint64_t t[4][5];
    fe4_to51(t[0], a);
    fe4_to51(t[1], b);
    fe4_to51(t[2], c);
    fe4_to51(t[3], d);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        h->l[i] = _mm256_set_epi64x((long long)t[3][i], (long long)t[2][i], (long long)t[1][i],
                                    (long long)t[0][i]);
    cs_wipe(t, sizeof(t));
}

/* out (4x64, below 2^256) = the element in lane `lane` of s (limbs below
 * 2^61): a carry pass from limb 0 up with limb 4's top folded into limb 0
 * (times 19), then one without the fold, leave limbs 0..3 below 2^51 and
 * limb 4 below 2^52, so the packed value is below 2^256. */
IFMA_INLINE void fe4_get(uint64_t out[4], const fe4 *s, int lane)
{
    uint64_t t[5], q[4];
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        _mm256_storeu_si256((__m256i *)q, s->l[i]);
        t[i] = q[lane];
    }
    #pragma GCC unroll 2
    for (int pass = 0; pass < 2; pass++) {
        #pragma GCC unroll 4
        for (int i = 0; i < 4; i++) {
            t[i + 1] += t[i] >> 51;
            t[i] &= M51;
        }
        t[0] += pass == 0 ? 19 * (t[4] >> 51) : 0;
        t[4] &= pass == 0 ? M51 : ~0ULL;
    }
    out[0] = t[0] | t[1] << 51;
    out[1] = t[1] >> 13 | t[2] << 38;
    out[2] = t[2] >> 26 | t[3] << 25;
    out[3] = t[3] >> 39 | t[4] << 12;
    cs_wipe(t, sizeof(t));
    cs_wipe(q, sizeof(q));
}

#endif
