/* Lane operations shared by the AVX2 Keccak permutations (keccak_x4_avx2.c,
 * keccak_x4x1_avx2.c): 64-bit rotations on 256-bit vectors, shift-or pairs
 * except by 8 and 56 (byte shuffles), and the round constants. Internal
 * header: include after avx2.h. */
#ifndef CRYPTOSHIM_MLDSA_KECCAK_AVX2_OPS_H
#define CRYPTOSHIM_MLDSA_KECCAK_AVX2_OPS_H

#include "../mldsa_portable.h"

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

#define XOR(a, b) _mm256_xor_si256(a, b)
#define ANDN(a, b) _mm256_andnot_si256(a, b) /* ~a & b */

#endif
