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

/* Decompose of 8 lanes (a in [0, q)). r1 = round(a / 2gamma2) is computed
 * on b = ceil(a / 128) < 2^16, which fits the low 16-bit half of each lane
 * (the high half is zero), so one 16-bit multiply-high does it: r1 =
 * floor((b * c + 2^(s+15)) / 2^(s+16)) with c = 1025, s = 6 (gamma2 =
 * (q-1)/32) or c = 11275, s = 8 ((q-1)/88), exact on this range (the
 * multiply-high's floor nests into the shift's). The top value m (16 or
 * 44) wraps to 0; then r0 = a - r1 * 2gamma2, minus q above (q-1)/2 (the
 * q-1 corner: r1 = 0, r0 = -1). 2gamma2 is 1023 * 2^9 or 93 * 2^11, so
 * r1 * 2gamma2 is a 16-bit multiply and a shift. The 32-bit multiplies
 * this replaced shared the two ports vpmuldq needs; this form has half
 * the multiply micro-ops. */
static inline __attribute__((always_inline)) __m256i decompose8_g(__m256i *r0, __m256i a,
                                                                   int g88)
{
    const __m256i half = _mm256_set1_epi32((AVX2_Q - 1) / 2), q = _mm256_set1_epi32(AVX2_Q);
    __m256i b = _mm256_srli_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(127)), 7), r1, f;
    if (g88) {
        r1 = _mm256_mulhi_epu16(b, _mm256_set1_epi32(11275));
        r1 = _mm256_srli_epi32(_mm256_add_epi32(r1, _mm256_set1_epi32(128)), 8);
        r1 = _mm256_andnot_si256(_mm256_cmpgt_epi32(r1, _mm256_set1_epi32(43)), r1);
        f = _mm256_slli_epi32(_mm256_mullo_epi16(r1, _mm256_set1_epi32(93)), 11);
    } else {
        r1 = _mm256_mulhi_epu16(b, _mm256_set1_epi32(1025));
        r1 = _mm256_srli_epi32(_mm256_add_epi32(r1, _mm256_set1_epi32(32)), 6);
        r1 = _mm256_and_si256(r1, _mm256_set1_epi32(15));
        f = _mm256_slli_epi32(_mm256_mullo_epi16(r1, _mm256_set1_epi32(1023)), 9);
    }
    __m256i lo = _mm256_sub_epi32(a, f);
    *r0 = _mm256_sub_epi32(lo, _mm256_and_si256(_mm256_cmpgt_epi32(lo, half), q));
    return r1;
}

/* The loops below branch once on gamma2 (public) so that each copy has
 * its constants and shift counts as immediates. */
#define DECOMPOSE_LOOP(body)                                                            \
    do {                                                                                \
        if (gamma2 == GAMMA2_88) {                                                      \
            for (unsigned i = 0; i < 256; i += 8) {                                     \
                __m256i r0, r1 = decompose8_g(&r0, avx2_load(a->c + i), 1);             \
                body;                                                                   \
            }                                                                           \
        } else {                                                                        \
            for (unsigned i = 0; i < 256; i += 8) {                                     \
                __m256i r0, r1 = decompose8_g(&r0, avx2_load(a->c + i), 0);             \
                body;                                                                   \
            }                                                                           \
        }                                                                               \
    } while (0)

void cs_mldsa_decompose_avx2(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                             int32_t gamma2)
{
    DECOMPOSE_LOOP((avx2_store(a1->c + i, r1), avx2_store(a0->c + i, r0)));
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

/* UseHint of 8 lanes: r1 moved by +1 (r0 > 0) or -1 where h = 1 (h in
 * {0, 1}, so -h is the mask selecting the step), modulo m. */
static inline __attribute__((always_inline)) __m256i use_hint8(__m256i r0, __m256i r1,
                                                               __m256i hint, __m256i m)
{
    const __m256i zero = _mm256_setzero_si256(), m1 = _mm256_set1_epi32(-1);
    __m256i step = _mm256_blendv_epi8(m1, _mm256_set1_epi32(1), _mm256_cmpgt_epi32(r0, zero));
    __m256i v = _mm256_add_epi32(r1, _mm256_and_si256(step, _mm256_sub_epi32(zero, hint)));
    v = _mm256_add_epi32(v, _mm256_and_si256(m, _mm256_cmpgt_epi32(zero, v)));
    return _mm256_sub_epi32(v, _mm256_and_si256(m, _mm256_cmpeq_epi32(v, m)));
}

void cs_mldsa_use_hint_avx2(cs_mldsa_poly *b, const cs_mldsa_poly *a, const cs_mldsa_poly *h,
                            int32_t gamma2)
{
    const __m256i m = _mm256_set1_epi32(gamma2 == GAMMA2_88 ? 44 : 16);
    DECOMPOSE_LOOP(avx2_store(b->c + i, use_hint8(r0, r1, avx2_load(h->c + i), m)));
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
