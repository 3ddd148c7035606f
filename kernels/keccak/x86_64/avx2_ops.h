/* Lane operations of the AVX2 Keccak permutations (x4_avx2.c,
 * x4x1_avx2.c) in the form simd_rounds.h takes: 64-bit rotations on
 * 256-bit vectors as shift-or pairs, except by 8 and 56 (byte shuffles),
 * and chi with ANDN. Internal header. */
#ifndef CRYPTOSHIM_KECCAK_AVX2_OPS_H
#define CRYPTOSHIM_KECCAK_AVX2_OPS_H

#include <immintrin.h>

/* Rotate each 64-bit lane left by n (a compile-time constant). */
static inline __attribute__((always_inline)) __m256i rol(__m256i x, int n)
{
    if (n == 8)
        return _mm256_shuffle_epi8(x, _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3,
                                                      2, 1, 0, 7, 14, 13, 12, 11, 10, 9, 8, 15,
                                                      6, 5, 4, 3, 2, 1, 0, 7));
    if (n == 56)
        return _mm256_shuffle_epi8(x, _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5,
                                                      4, 3, 2, 1, 8, 15, 14, 13, 12, 11, 10, 9,
                                                      0, 7, 6, 5, 4, 3, 2, 1));
    return _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - n));
}

#define V __m256i
#define XOR(a, b) _mm256_xor_si256(a, b)
#define ANDN(a, b) _mm256_andnot_si256(a, b) /* ~a & b */
#define CHI(a, b, c) XOR(a, ANDN(b, c))
#define ROL(x, n) rol(x, n)
#define X5(a, b, c, d, e) XOR(XOR(XOR(a, b), XOR(c, d)), e)
#define VRC(i) _mm256_set1_epi64x((long long)cs_keccak_rc[i])
#define VLD(i) _mm256_loadu_si256((const __m256i *)sv + (i))
#define VST(i, x) _mm256_storeu_si256((__m256i *)sv + (i), (x))

#endif
