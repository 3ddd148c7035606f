/* AVX2 Power2Round, Decompose, MakeHint, UseHint and the norm check, all
 * branch-free (they run on secret data while signing) and exact: the same
 * integer formulas as the portable code, eight lanes at a time. */
#include "avx2.h"

#define GAMMA2_88 ((AVX2_Q - 1) / 88)

/* a = a1 * 2^13 + a0, a0 in (-2^12, 2^12]. */
void cs_mldsa_power2round_avx2(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a)
{
    const __m256i r = _mm256_set1_epi32((1 << (CS_MLDSA_D - 1)) - 1);
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a->c + i);
        __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(x, r), CS_MLDSA_D);
        avx2_store(a1->c + i, hi);
        avx2_store(a0->c + i, _mm256_sub_epi32(x, _mm256_slli_epi32(hi, CS_MLDSA_D)));
    }
}

/* Decompose of 8 lanes (a in [0, q)): r1 = floor((a + gamma2 - 1) / 2gamma2)
 * by a 64-bit multiply-shift that is exact on this range (the portable
 * code's constants), then the q-1 corner (r1 == m gives r1 = 0, r0 - 1). */
static inline __m256i decompose8(__m256i *r0, __m256i a, int32_t gamma2)
{
    const int g88 = gamma2 == GAMMA2_88;
    const __m256i mul = _mm256_set1_epi32(g88 ? 2886403 : 8396809);
    const __m256i m = _mm256_set1_epi32(g88 ? 44 : 16);
    const __m128i sh = _mm_cvtsi32_si128(g88 ? 39 : 42);
    __m256i x = _mm256_add_epi32(a, _mm256_set1_epi32(gamma2 - 1));
    __m256i pe = _mm256_srl_epi64(_mm256_mul_epu32(x, mul), sh);
    __m256i po = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), mul), sh);
    __m256i r1 = _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
    __m256i lo = _mm256_sub_epi32(a, _mm256_mullo_epi32(r1, _mm256_set1_epi32(2 * gamma2)));
    __m256i corner = _mm256_cmpeq_epi32(r1, m);
    *r0 = _mm256_add_epi32(lo, corner);
    return _mm256_andnot_si256(corner, r1);
}

void cs_mldsa_decompose_avx2(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                             int32_t gamma2)
{
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i r0, r1 = decompose8(&r0, avx2_load(a->c + i), gamma2);
        avx2_store(a1->c + i, r1);
        avx2_store(a0->c + i, r0);
    }
}

/* h = [a0 > g2] | [a0 < -g2] | ([a0 == -g2] & [a1 != 0]); counts ones
 * with popcnt of the lane masks (constant time). */
unsigned cs_mldsa_make_hint_avx2(cs_mldsa_poly *h, const cs_mldsa_poly *a0,
                                 const cs_mldsa_poly *a1, int32_t gamma2)
{
    const __m256i g = _mm256_set1_epi32(gamma2), ng = _mm256_set1_epi32(-gamma2);
    const __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
    unsigned n = 0;
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a0->c + i), y = avx2_load(a1->c + i);
        __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi32(x, g), _mm256_cmpgt_epi32(ng, x));
        __m256i edge = _mm256_andnot_si256(_mm256_cmpeq_epi32(y, zero), _mm256_cmpeq_epi32(x, ng));
        bad = _mm256_or_si256(bad, edge);
        avx2_store(h->c + i, _mm256_and_si256(bad, one));
        n += (unsigned)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(bad)));
    }
    return n;
}

/* UseHint: r1 moved by +1 (r0 > 0) or -1 where h = 1, modulo m. */
void cs_mldsa_use_hint_avx2(cs_mldsa_poly *b, const cs_mldsa_poly *a, const cs_mldsa_poly *h,
                            int32_t gamma2)
{
    const __m256i m = _mm256_set1_epi32(gamma2 == GAMMA2_88 ? 44 : 16);
    const __m256i zero = _mm256_setzero_si256(), m1 = _mm256_set1_epi32(-1);
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i r0, r1 = decompose8(&r0, avx2_load(a->c + i), gamma2);
        __m256i hint = avx2_load(h->c + i);
        /* step = +1 if r0 > 0 else -1; v = r1 + hint * step */
        __m256i step = _mm256_blendv_epi8(m1, _mm256_set1_epi32(1), _mm256_cmpgt_epi32(r0, zero));
        __m256i v = _mm256_add_epi32(r1, _mm256_mullo_epi32(hint, step));
        v = _mm256_add_epi32(v, _mm256_and_si256(m, _mm256_cmpgt_epi32(zero, v)));
        v = _mm256_sub_epi32(v, _mm256_and_si256(m, _mm256_cmpeq_epi32(v, m)));
        avx2_store(b->c + i, v);
    }
}

/* Nonzero iff some |a_i| >= bound; reads every coefficient. */
int cs_mldsa_chknorm_avx2(const cs_mldsa_poly *a, int32_t bound)
{
    const __m256i lim = _mm256_set1_epi32(bound - 1);
    __m256i bad = _mm256_setzero_si256();
    for (unsigned i = 0; i < 256; i += 8)
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(avx2_load(a->c + i)), lim));
    return !_mm256_testz_si256(bad, bad);
}
