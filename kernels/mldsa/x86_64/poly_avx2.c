/* AVX2 elementwise hooks: reductions, add/sub/shift, and the sparse
 * challenge product. All branch-free on coefficient values. */
#include "avx2.h"

/* reduce32, sum_chknorm, caddq, add, sub (vec32_poly.h); the norm flags
 * in a vector, tested once. */
#define VEC_W 256
#define VEC_SFX avx2
#define VEC_BAD_T __m256i
#define VEC_BAD_0 _mm256_setzero_si256()
#define VEC_BAD_OR(bad, x, lim) bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(x), lim))
#define VEC_BAD_ANY(bad) !_mm256_testz_si256(bad, bad)
#include "vec32_poly.h"

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
/* r_k = OP(r_k, the k-th eight words at src) for the eight accumulators */
#define ACC8(OP)                                                                        \
    r0 = OP(r0, LD(0)), r1 = OP(r1, LD(1)), r2 = OP(r2, LD(2)), r3 = OP(r3, LD(3));     \
    r4 = OP(r4, LD(4)), r5 = OP(r5, LD(5)), r6 = OP(r6, LD(6)), r7 = OP(r7, LD(7))
    for (unsigned i = 0; i < 256; i += 64) {
        /* eight named accumulators so they stay in registers */
        __m256i r0 = zero, r1 = zero, r2 = zero, r3 = zero, r4 = zero, r5 = zero, r6 = zero,
                r7 = zero;
        for (unsigned t = 0; t < np; t++) {
            const int32_t *src = ext + i + pos[t];
            ACC8(_mm256_add_epi32);
        }
        for (unsigned t = 0; t < nn; t++) {
            const int32_t *src = ext + i + neg[t];
            ACC8(_mm256_sub_epi32);
        }
        int32_t *out = r->c + i;
        avx2_store(out, r0), avx2_store(out + 8, r1), avx2_store(out + 16, r2);
        avx2_store(out + 24, r3), avx2_store(out + 32, r4), avx2_store(out + 40, r5);
        avx2_store(out + 48, r6), avx2_store(out + 56, r7);
    }
#undef ACC8
#undef LD
}
