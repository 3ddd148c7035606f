/* Lane operations of the AVX-512 Keccak permutations in the form
 * simd_rounds.h takes: one-instruction rotations (vprolq) and three-input
 * logic (vpternlogq) for theta's five-way XOR and chi, on 256-bit
 * registers (AVX-512VL, KECCAK_AVX512_256 defined: x4_avx512.c) or 512-bit
 * ones (x8_avx512.c, x8x1_avx512.c). Internal header; include once. */
#ifndef CRYPTOSHIM_KECCAK_AVX512_OPS_H
#define CRYPTOSHIM_KECCAK_AVX512_OPS_H

#include <immintrin.h>

/* 0x96: a ^ b ^ c; 0xD2: a ^ (~b & c). */
#if defined(KECCAK_AVX512_256)
#define V __m256i
#define XOR(a, b) _mm256_xor_si256(a, b)
#define XOR3(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0x96)
#define CHI(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0xD2)
#define ROL(x, n) _mm256_rol_epi64(x, n)
#define VRC(i) _mm256_set1_epi64x((long long)cs_keccak_rc[i])
#define VLD(i) _mm256_loadu_si256((const __m256i *)sv + (i))
#define VST(i, x) _mm256_storeu_si256((__m256i *)sv + (i), (x))
#else
#define V __m512i
#define XOR(a, b) _mm512_xor_si512(a, b)
#define XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xD2)
#define ROL(x, n) _mm512_rol_epi64(x, n)
#define VRC(i) _mm512_set1_epi64((long long)cs_keccak_rc[i])
#define VLD(i) _mm512_loadu_si512((const __m512i *)sv + (i))
#define VST(i, x) _mm512_storeu_si512((__m512i *)sv + (i), (x))
#endif
#define X5(a, b, c, d, e) XOR3(XOR3(a, b, c), d, e)

#endif
