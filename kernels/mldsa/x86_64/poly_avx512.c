/* AVX-512 elementwise hooks of the "avx512" table: reductions, add/sub,
 * Decompose, MakeHint, UseHint and the norm check, sixteen lanes at a time
 * with compare masks in place of the AVX2 code's blends. The same integer
 * formulas as the portable code (so the same outputs), no branch or memory
 * index on coefficient values. */
#include "avx512.h"

#define GAMMA2_88 ((AVX512_Q - 1) / 88)

/* reduce32, sum_chknorm, caddq, add, sub (vec32_poly.h); the norm flags
 * in a compare mask. */
#define VEC_W 512
#define VEC_SFX avx512
#define VEC_BAD_T __mmask16
#define VEC_BAD_0 0
#define VEC_BAD_OR(bad, x, lim) bad |= _mm512_cmpgt_epi32_mask(_mm512_abs_epi32(x), lim)
#define VEC_BAD_ANY(bad) bad != 0
#include "vec32_poly.h"

/* Decompose of 16 lanes (a in [0, q)), the AVX2 code's formula (see
 * rounding_avx2.c): r1 = round(a / 2gamma2) from b = ceil(a / 128) < 2^16
 * by one 16-bit multiply-high and a shift, the top value (16 or 44)
 * wrapped to 0, r0 = a - r1 * 2gamma2 (a 16-bit multiply and a shift),
 * minus q above (q-1)/2 (the q-1 corner: r1 = 0, r0 = -1). */
static inline __attribute__((always_inline)) __m512i decompose16(__m512i *r0, __m512i a, int g88)
{
    const __m512i half = _mm512_set1_epi32((AVX512_Q - 1) / 2), q = _mm512_set1_epi32(AVX512_Q);
    __m512i b = _mm512_srli_epi32(_mm512_add_epi32(a, _mm512_set1_epi32(127)), 7), r1, f;
    if (g88) {
        r1 = _mm512_mulhi_epu16(b, _mm512_set1_epi32(11275));
        r1 = _mm512_srli_epi32(_mm512_add_epi32(r1, _mm512_set1_epi32(128)), 8);
        r1 = _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(_mm512_set1_epi32(44), r1), r1);
        f = _mm512_slli_epi32(_mm512_mullo_epi16(r1, _mm512_set1_epi32(93)), 11);
    } else {
        r1 = _mm512_mulhi_epu16(b, _mm512_set1_epi32(1025));
        r1 = _mm512_srli_epi32(_mm512_add_epi32(r1, _mm512_set1_epi32(32)), 6);
        r1 = _mm512_and_si512(r1, _mm512_set1_epi32(15));
        f = _mm512_slli_epi32(_mm512_mullo_epi16(r1, _mm512_set1_epi32(1023)), 9);
    }
    __m512i lo = _mm512_sub_epi32(a, f);
    *r0 = _mm512_mask_sub_epi32(lo, _mm512_cmpgt_epi32_mask(lo, half), lo, q);
    return r1;
}

/* The loops below branch once on gamma2 (public) so that each copy has
 * its constants and shift counts as immediates. */
#define DECOMPOSE_LOOP(body)                                                            \
    do {                                                                                \
        if (gamma2 == GAMMA2_88) {                                                      \
            for (unsigned i = 0; i < 256; i += 16) {                                    \
                __m512i r0, r1 = decompose16(&r0, avx512_load(a->c + i), 1);            \
                body;                                                                   \
            }                                                                           \
        } else {                                                                        \
            for (unsigned i = 0; i < 256; i += 16) {                                    \
                __m512i r0, r1 = decompose16(&r0, avx512_load(a->c + i), 0);            \
                body;                                                                   \
            }                                                                           \
        }                                                                               \
    } while (0)

/* Decompose of every coefficient: a1 = HighBits, a0 = LowBits. */
void cs_mldsa_decompose_avx512(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                               int32_t gamma2)
{
    DECOMPOSE_LOOP((avx512_store(a1->c + i, r1), avx512_store(a0->c + i, r0)));
}

/* h = [a0 > g2] | [a0 < -g2] | ([a0 == -g2] & [a1 != 0]); counts ones
 * with popcnt of the lane masks (constant time). */
unsigned cs_mldsa_make_hint_avx512(cs_mldsa_poly *h, const cs_mldsa_poly *a0,
                                   const cs_mldsa_poly *a1, int32_t gamma2)
{
    const __m512i g = _mm512_set1_epi32(gamma2), ng = _mm512_set1_epi32(-gamma2);
    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    unsigned n = 0;
    for (unsigned i = 0; i < 256; i += 16) {
        __m512i x = avx512_load(a0->c + i), y = avx512_load(a1->c + i);
        __mmask16 edge = _mm512_cmpeq_epi32_mask(x, ng) & (__mmask16)~_mm512_cmpeq_epi32_mask(y, zero);
        __mmask16 bad = _mm512_cmpgt_epi32_mask(x, g) | _mm512_cmpgt_epi32_mask(ng, x) | edge;
        avx512_store(h->c + i, _mm512_maskz_mov_epi32(bad, one));
        n += (unsigned)_mm_popcnt_u32((unsigned)bad);
    }
    return n;
}

/* UseHint of 16 lanes: r1 moved by +1 (r0 > 0) or -1 where h = 1, then
 * brought back into [0, m). */
static inline __attribute__((always_inline)) __m512i use_hint16(__m512i r0, __m512i r1,
                                                                __m512i hint, __m512i m)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    __mmask16 hm = (__mmask16)~_mm512_cmpeq_epi32_mask(hint, zero);
    __mmask16 up = _mm512_cmpgt_epi32_mask(r0, zero);
    __m512i v = _mm512_mask_add_epi32(r1, hm & up, r1, one);
    v = _mm512_mask_sub_epi32(v, hm & (__mmask16)~up, v, one);
    v = _mm512_mask_add_epi32(v, _mm512_cmpgt_epi32_mask(zero, v), v, m);
    return _mm512_mask_sub_epi32(v, _mm512_cmpeq_epi32_mask(v, m), v, m);
}

/* UseHint of every coefficient (public data: verification). */
void cs_mldsa_use_hint_avx512(cs_mldsa_poly *b, const cs_mldsa_poly *a, const cs_mldsa_poly *h,
                              int32_t gamma2)
{
    const __m512i m = _mm512_set1_epi32(gamma2 == GAMMA2_88 ? 44 : 16);
    DECOMPOSE_LOOP(avx512_store(b->c + i, use_hint16(r0, r1, avx512_load(h->c + i), m)));
}

/* Nonzero iff some |a_i| >= bound; reads every coefficient. */
int cs_mldsa_chknorm_avx512(const cs_mldsa_poly *a, int32_t bound)
{
    const __m512i lim = _mm512_set1_epi32(bound - 1);
    __mmask16 bad = 0;
    for (unsigned i = 0; i < 256; i += 16)
        bad |= _mm512_cmpgt_epi32_mask(_mm512_abs_epi32(avx512_load(a->c + i)), lim);
    return bad != 0;
}
