/* AVX2 elementwise hooks: reductions, add/sub/shift, and the sparse
 * challenge product. All branch-free on coefficient values. */
#include "avx2.h"

/* a mod q into [-6283008, 6283008]: subtracts round(a / 2^23) * q. */
void cs_mldsa_reduce32_avx2(cs_mldsa_poly *a)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q), half = _mm256_set1_epi32(1 << 22);
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a->c + i);
        __m256i t = _mm256_srai_epi32(_mm256_add_epi32(x, half), 23);
        avx2_store(a->c + i, _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q)));
    }
}

/* c = reduce32(a + b) or reduce32(a - b), nonzero iff some |c_i| >=
 * bound: the three passes of add/sub, reduce32 and chknorm in one. */
static inline __attribute__((always_inline)) int sum_chknorm_s(cs_mldsa_poly *c,
                                                               const cs_mldsa_poly *a,
                                                               const cs_mldsa_poly *b, int sub,
                                                               int32_t bound)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q), half = _mm256_set1_epi32(1 << 22);
    const __m256i lim = _mm256_set1_epi32(bound - 1);
    __m256i bad = _mm256_setzero_si256();
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a->c + i), y = avx2_load(b->c + i);
        x = sub ? _mm256_sub_epi32(x, y) : _mm256_add_epi32(x, y);
        __m256i t = _mm256_srai_epi32(_mm256_add_epi32(x, half), 23);
        x = _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q));
        avx2_store(c->c + i, x);
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(x), lim));
    }
    return !_mm256_testz_si256(bad, bad);
}

/* The sum_chknorm hook: one copy per sign of b (public), so the add or
 * subtract is fixed in each loop. */
int cs_mldsa_sum_chknorm_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b,
                              int sub, int32_t bound)
{
    return sub ? sum_chknorm_s(c, a, b, 1, bound) : sum_chknorm_s(c, a, b, 0, bound);
}

/* Adds q to negative coefficients (mask from the sign bit). */
void cs_mldsa_caddq_avx2(cs_mldsa_poly *a)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q);
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(a->c + i);
        avx2_store(a->c + i, _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q)));
    }
}

/* c = a + b. */
void cs_mldsa_add_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 8)
        avx2_store(c->c + i, _mm256_add_epi32(avx2_load(a->c + i), avx2_load(b->c + i)));
}

/* c = a - b. */
void cs_mldsa_sub_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 8)
        avx2_store(c->c + i, _mm256_sub_epi32(avx2_load(a->c + i), avx2_load(b->c + i)));
}

/* a = a << 13. */
void cs_mldsa_shiftl_avx2(cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i += 8)
        avx2_store(a->c + i, _mm256_slli_epi32(avx2_load(a->c + i), CS_MLDSA_D));
}

/* r = c * s exactly in Z[X]/(X^256+1). c is public: its nonzero positions
 * are listed by sign, and each output block of 8 adds or subtracts, for
 * every listed j, eight consecutive words of ext = (-s, s) starting at
 * 256 + i - j (the negacyclic wrap is the -s half). s is read at indices
 * fixed by c only. Eight output registers at a time. */
void cs_mldsa_mul_challenge_avx2(cs_mldsa_poly *r, const cs_mldsa_poly *c,
                                 const cs_mldsa_poly *s)
{
    int32_t ext[512] __attribute__((aligned(32)));
    uint16_t pos[256], neg[256];
    unsigned np = 0, nn = 0;
    /* Sign bitmaps of c, 64 coefficients per word, then one step per
     * nonzero coefficient (no per-coefficient branch to mispredict). */
    for (unsigned w = 0; w < 4; w++) {
        uint64_t mp = 0, mn = 0;
        for (unsigned k = 0; k < 8; k++) {
            __m256i x = avx2_load(c->c + 64 * w + 8 * k);
            mp |= (uint64_t)(unsigned)_mm256_movemask_ps(
                      _mm256_castsi256_ps(_mm256_cmpgt_epi32(x, _mm256_setzero_si256())))
                  << (8 * k);
            mn |= (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(x)) << (8 * k);
        }
        for (; mp; mp &= mp - 1)
            pos[np++] = (uint16_t)(256 - 64 * w - (unsigned)__builtin_ctzll(mp));
        for (; mn; mn &= mn - 1)
            neg[nn++] = (uint16_t)(256 - 64 * w - (unsigned)__builtin_ctzll(mn));
    }
    const __m256i zero = _mm256_setzero_si256();
    for (unsigned i = 0; i < 256; i += 8) {
        __m256i x = avx2_load(s->c + i);
        avx2_store(ext + 256 + i, x);
        avx2_store(ext + i, _mm256_sub_epi32(zero, x));
    }
#define LD(k) _mm256_loadu_si256((const __m256i *)(src + 8 * (k)))
    for (unsigned i = 0; i < 256; i += 64) {
        /* eight named accumulators so they stay in registers */
        __m256i r0 = zero, r1 = zero, r2 = zero, r3 = zero, r4 = zero, r5 = zero, r6 = zero,
                r7 = zero;
        for (unsigned t = 0; t < np; t++) {
            const int32_t *src = ext + i + pos[t];
            r0 = _mm256_add_epi32(r0, LD(0)), r1 = _mm256_add_epi32(r1, LD(1));
            r2 = _mm256_add_epi32(r2, LD(2)), r3 = _mm256_add_epi32(r3, LD(3));
            r4 = _mm256_add_epi32(r4, LD(4)), r5 = _mm256_add_epi32(r5, LD(5));
            r6 = _mm256_add_epi32(r6, LD(6)), r7 = _mm256_add_epi32(r7, LD(7));
        }
        for (unsigned t = 0; t < nn; t++) {
            const int32_t *src = ext + i + neg[t];
            r0 = _mm256_sub_epi32(r0, LD(0)), r1 = _mm256_sub_epi32(r1, LD(1));
            r2 = _mm256_sub_epi32(r2, LD(2)), r3 = _mm256_sub_epi32(r3, LD(3));
            r4 = _mm256_sub_epi32(r4, LD(4)), r5 = _mm256_sub_epi32(r5, LD(5));
            r6 = _mm256_sub_epi32(r6, LD(6)), r7 = _mm256_sub_epi32(r7, LD(7));
        }
        int32_t *out = r->c + i;
        avx2_store(out, r0), avx2_store(out + 8, r1), avx2_store(out + 16, r2);
        avx2_store(out + 24, r3), avx2_store(out + 32, r4), avx2_store(out + 40, r5);
        avx2_store(out + 48, r6), avx2_store(out + 56, r7);
    }
#undef LD
}
