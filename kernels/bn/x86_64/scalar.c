/* Scalar Montgomery multiplication shared by the MULX and ADX kernels, and
 * the MULX-only kernel itself (BMI2 without ADX: the compiler's mulx with an
 * ordinary adc chain). Built with -mbmi2; run only where BMI2 is present. */
#include <emmintrin.h>
#include <string.h>

#include "scalar.h"

/* See scalar.h: entries of any word count; each entry's words are read in
 * 128-bit pieces (SSE2, in every x86-64) under a mask from cs_ct_eq_mask,
 * eight words per pass over the table, then pairs, then a last single word. */
void scalar_select(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                   const unsigned *idx)
{
    __m128i mask[64];
    for (size_t j = 0; j < entries; j++)
        mask[j] = _mm_set1_epi64x((long long)cs_ct_eq_mask(j, idx[0]));
    size_t i = 0;
    for (; i + 8 <= words; i += 8) {
        __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t j = 0; j < entries; j++) {
            const __m128i *t = (const __m128i *)(tab + j * words + i);
            a0 = _mm_or_si128(a0, _mm_and_si128(_mm_loadu_si128(t), mask[j]));
            a1 = _mm_or_si128(a1, _mm_and_si128(_mm_loadu_si128(t + 1), mask[j]));
            a2 = _mm_or_si128(a2, _mm_and_si128(_mm_loadu_si128(t + 2), mask[j]));
            a3 = _mm_or_si128(a3, _mm_and_si128(_mm_loadu_si128(t + 3), mask[j]));
        }
        _mm_storeu_si128((__m128i *)(out + i), a0);
        _mm_storeu_si128((__m128i *)(out + i + 2), a1);
        _mm_storeu_si128((__m128i *)(out + i + 4), a2);
        _mm_storeu_si128((__m128i *)(out + i + 6), a3);
    }
    for (; i + 2 <= words; i += 2) {
        __m128i a0 = _mm_setzero_si128();
        for (size_t j = 0; j < entries; j++)
            a0 = _mm_or_si128(a0, _mm_and_si128(
                                      _mm_loadu_si128((const __m128i *)(tab + j * words + i)),
                                      mask[j]));
        _mm_storeu_si128((__m128i *)(out + i), a0);
    }
    if (i < words) {
        cs_limb acc = 0;
        for (size_t j = 0; j < entries; j++)
            acc |= tab[j * words + i] & (cs_limb)_mm_cvtsi128_si64(mask[j]);
        out[i] = acc;
    }
}

/* See scalar.h: word-serial Montgomery, final subtraction by mask. */
void scalar_mont(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                 uint64_t n0, size_t n, scalar_row_fn *row)
{
    uint64_t t[CS_BN_MAX_LIMBS + 2];
    memset(t, 0, (n + 2) * sizeof *t);
    /* Word-serial: t = (t + a*b_i + q*m) / 2^64 with t below 2m throughout. */
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 s = (unsigned __int128)t[n] + row(t, a, b[i], n);
        t[n] = (uint64_t)s;
        t[n + 1] = (uint64_t)(s >> 64);
        uint64_t q = t[0] * n0;
        s = (unsigned __int128)t[n] + row(t, m, q, n);
        t[n] = (uint64_t)s;
        t[n + 1] += (uint64_t)(s >> 64);
        for (size_t j = 0; j <= n; j++) /* t[0] is zero now: divide by 2^64 */
            t[j] = t[j + 1];
        t[n + 1] = 0;
    }
    scalar_reduce(r, t, m, n);
}

/* See scalar.h: one subtraction of m, kept by mask. */
void scalar_reduce(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n)
{
    uint64_t d[CS_BN_MAX_LIMBS];
    unsigned __int128 br = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned __int128 x = (unsigned __int128)t[j] - m[j] - br;
        d[j] = (uint64_t)x;
        br = (x >> 64) & 1;
    }
    /* Keep t when t < m, i.e. the subtraction borrowed out of t[n] too. */
    uint64_t keep = 0 - (uint64_t)(br > t[n]);
    for (size_t j = 0; j < n; j++)
        r[j] = cs_ct_select(keep, t[j], d[j]);
}

/* Row product in C; with -mbmi2 the compiler emits mulx. */
static uint64_t row_c(uint64_t *t, const uint64_t *a, uint64_t b, size_t n)
{
    uint64_t c = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned __int128 p = (unsigned __int128)a[j] * b + t[j] + c;
        t[j] = (uint64_t)p;
        c = (uint64_t)(p >> 64);
    }
    return c;
}

/* The engine's multiplication over plain limbs: full Montgomery product
 * with the C row. */
static void mulx_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    scalar_mont(r, a, b, c->m, c->n0, c->n, row_c);
}

CS_BN_LIMB_KERNEL_SEL(cs_bn_x86_mulx, "x86_64-mulx", CS_CPU_BMI2, 256, SCALAR_MAX_BITS, mulx_mul,
                      mulx_mul, scalar_select, 1);
