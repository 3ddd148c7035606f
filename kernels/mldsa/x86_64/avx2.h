/* The AVX2 ML-DSA backend's internal interface: its hooks (contracts in
 * ../mldsa_backend.h) and the vector helpers they share. Everything here
 * is compiled with -mavx2 -mbmi -mbmi2 -mpopcnt (mk/kernels_mldsa.mk) and runs only
 * when the dispatcher saw AVX2 on the CPU.
 *
 * NTT order: the forward NTT leaves each 64-coefficient block transposed as
 * an 8x8 matrix of 32-bit words (word 8i+j of the block holds FIPS position
 * 8j+i), which saves the shuffles that would undo it; cs_mldsa_nttorder_avx2
 * applies the same transposition to ExpandA's output (the ntt_order hook). */
#ifndef CRYPTOSHIM_MLDSA_AVX2_H
#define CRYPTOSHIM_MLDSA_AVX2_H

#include <immintrin.h>
#include <string.h>

#include "../mldsa_backend.h"
#include "../../keccak/keccak_internal.h"

#define AVX2_Q CS_MLDSA_Q
#define AVX2_QINV 58728449 /* q^-1 mod 2^32 */

extern const cs_mldsa_impl cs_mldsa_avx2;
/* The same hooks with the AVX-512 Keccak table and samplers. The Keccak
 * permutations the expanders call directly are declared in
 * kernels/keccak/keccak_internal.h. */
extern const cs_mldsa_impl cs_mldsa_avx512;

CS_MLDSA_DECLARE_NTT(avx2);
CS_MLDSA_DECLARE_FUSED(avx2);
CS_MLDSA_DECLARE_ROUNDING(avx2);
CS_MLDSA_DECLARE_REJ(, avx2);
/* The same two with sixteen candidates per step (rej_avx512.c; AVX-512F,
 * BW, VL: the "avx512" table). */
CS_MLDSA_DECLARE_REJ(, avx512);

/* ExpandA (also with a side sponge), ExpandS and ExpandMask squeezing four
 * SHAKE streams per permutation (expand_avx2.c), or eight where a batch has
 * more than four (expand_avx512.c; the "avx512" table). */
#define CS_MLDSA_DECLARE_EXPAND(SFX)                                                            \
    void cs_mldsa_expand_a_##SFX(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,                 \
                                 const uint8_t rho[32], unsigned k, unsigned l);                \
    void cs_mldsa_expand_a_side_##SFX(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,            \
                                      const uint8_t rho[32], unsigned k, unsigned l,            \
                                      cs_mldsa_side *side);                                     \
    void cs_mldsa_expand_s_##SFX(const cs_mldsa_impl *impl, cs_mldsa_poly *s1,                  \
                                 cs_mldsa_poly *s2, const uint8_t rhoprime[64], unsigned k,     \
                                 unsigned l, unsigned eta);                                     \
    void cs_mldsa_expand_mask_##SFX(const cs_mldsa_impl *impl, cs_mldsa_poly *y,                \
                                    const uint8_t rhopp[64], uint16_t kappa, unsigned l,        \
                                    int32_t gamma1)
CS_MLDSA_DECLARE_EXPAND(avx2);
CS_MLDSA_DECLARE_EXPAND(avx512);
/* ExpandS and ExpandA in one pass (the expand_sa_side hook, expand_avx512.c). */
void cs_mldsa_expand_sa_side_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *s1,
                                    cs_mldsa_poly *s2, const uint8_t rhoprime[64], unsigned eta,
                                    cs_mldsa_poly *mat, const uint8_t rho[32], unsigned k,
                                    unsigned l, cs_mldsa_side *side);

CS_MLDSA_DECLARE_PACK(avx2);
CS_MLDSA_DECLARE_ZW1(avx2);
void cs_mldsa_t_row_finish_avx2(uint8_t *r, cs_mldsa_poly *t0, const cs_mldsa_poly *t,
                                const cs_mldsa_poly *s2);

/* Eight coefficients. Unaligned forms: cs_mldsa_poly is declared 32-byte
 * aligned, but the generic code keeps polynomials in malloc'ed workspaces
 * (16-byte aligned), and on AVX2 CPUs the unaligned forms cost nothing
 * extra on aligned data. */
static inline __m256i avx2_load(const int32_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static inline void avx2_store(int32_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)p, v);
}

/* The Montgomery results from 64-bit products pe (even lanes) and po (odd
 * lanes, each in the low half of its 64-bit slot) and their multiples me,
 * mo of q: lane-wise (p - m*q) / 2^32. The low halves of p and m*q agree,
 * so a 32-bit subtraction yields the exact high half. */
static inline __m256i avx2_mont_high(__m256i pe, __m256i po, __m256i me, __m256i mo)
{
    __m256i re = _mm256_srli_epi64(_mm256_sub_epi32(pe, me), 32);
    __m256i ro = _mm256_sub_epi32(po, mo);
    return _mm256_blend_epi32(re, ro, 0xAA);
}

/* Signed Montgomery product of the high halves: given 64-bit products
 * pe (even lanes) and po (odd lanes, each in the low half of its 64-bit
 * slot), returns lane-wise (p - m*q) / 2^32 with m = p * q^-1 mod 2^32,
 * i.e. p * 2^-32 mod q, |result| < q for |p| < q * 2^31. */
static inline __m256i avx2_montred(__m256i pe, __m256i po)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q), qinv = _mm256_set1_epi32(AVX2_QINV);
    __m256i me = _mm256_mul_epi32(_mm256_mul_epi32(pe, qinv), q);
    __m256i mo = _mm256_mul_epi32(_mm256_mul_epi32(po, qinv), q);
    return avx2_mont_high(pe, po, me, mo);
}

/* a * z * 2^-32 mod q lane-wise, |result| < q for |a*z| < q * 2^31, with
 * zt = z * q^-1 mod 2^32 precomputed (saves one multiplication per half).
 * ze/zte hold the even lanes' constants, zo/zto the odd lanes' (in the low
 * halves of the 64-bit slots; a broadcast constant serves as both). */
static inline __m256i avx2_montmul(__m256i a, __m256i ze, __m256i zte, __m256i zo,
                                   __m256i zto)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q);
    __m256i ao = _mm256_srli_epi64(a, 32);
    __m256i me = _mm256_mul_epi32(_mm256_mul_epi32(a, zte), q);
    __m256i mo = _mm256_mul_epi32(_mm256_mul_epi32(ao, zto), q);
    return avx2_mont_high(_mm256_mul_epi32(a, ze), _mm256_mul_epi32(ao, zo), me, mo);
}

/* The b-bit lanes of v (b <= 15) as one 8b-bit number in the low bits of
 * a 128-bit register: pairs merged in 64-bit slots, pairs of slots in each
 * 128-bit half (4b bits), then the halves joined by 64-bit shifts. All
 * in vector registers (a 128-bit scalar and a b-byte memcpy cost three
 * times as much for b = 13). */
static inline __attribute__((always_inline)) __m128i avx2_merge8(__m256i v, unsigned b)
{
    __m256i t = _mm256_or_si256(v, _mm256_srli_epi64(v, 32 - b));
    t = _mm256_and_si256(t, _mm256_set1_epi64x((1LL << (2 * b)) - 1));
    t = _mm256_or_si256(t, _mm256_slli_epi64(_mm256_bsrli_epi128(t, 8), 2 * b));
    __m128i u = _mm256_castsi256_si128(_mm256_permute4x64_epi64(t, 0x08)); /* x0, x1 */
    __m128i lo = _mm_or_si128(u, _mm_bsrli_si128(_mm_slli_epi64(u, 4 * b), 8));
    __m128i hi = _mm_bslli_si128(_mm_srli_epi64(_mm_bsrli_si128(u, 8), 64 - 4 * b), 8);
    return _mm_or_si128(_mm_move_epi64(lo), hi);
}

/* Packs 32 values in [0, 2^b), b in {3, 4, 6}, the lanes of x0..x3 in
 * order, into exactly 4b bytes at r (FIPS 204 bit order): narrowed to
 * bytes (the packs interleave 128-bit lanes, one dword permutation
 * restores the order), neighbours merged by multiply-adds (b0 + 2^b b1,
 * then pairs of those), and for 3 and 6 bits each group's bytes moved
 * together per 128-bit half. */
static inline __attribute__((always_inline)) void avx2_pack32(uint8_t *r, __m256i x0, __m256i x1,
                                                              __m256i x2, __m256i x3, unsigned b)
{
    __m256i v = _mm256_packus_epi16(_mm256_packs_epi32(x0, x1), _mm256_packs_epi32(x2, x3));
    v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    if (b == 4) {
        v = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x1001));
        __m128i w = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        _mm_storeu_si128((__m128i *)r, w);
    } else if (b == 6) {
        v = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x4001));
        v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x10000001));
        v = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1,
                                                    -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13,
                                                    14, -1, -1, -1, -1));
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        _mm_storel_epi64((__m128i *)r, lo);
        _mm_storeu_si32(r + 8, _mm_bsrli_si128(lo, 8));
        _mm_storel_epi64((__m128i *)(r + 12), hi);
        _mm_storeu_si32(r + 20, _mm_bsrli_si128(hi, 8));
    } else { /* 3 bits: eight values per 24-bit group, two groups per half */
        v = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0801));
        v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x00400001));
        v = _mm256_or_si256(v, _mm256_srli_epi64(v, 20));
        v = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 2, 8, 9, 10, -1, -1, -1, -1, -1, -1, -1,
                                                    -1, -1, -1, 0, 1, 2, 8, 9, 10, -1, -1, -1, -1,
                                                    -1, -1, -1, -1, -1, -1));
        uint64_t lo = (uint64_t)_mm256_extract_epi64(v, 0), hi = (uint64_t)_mm256_extract_epi64(v, 2);
        memcpy(r, &lo, 6); /* x86-64: little-endian */
        memcpy(r + 6, &hi, 6);
    }
}

/* Transposes the 8x8 matrix of 32-bit words in the eight named
 * registers r0..r7 in place (a macro on named variables: GCC keeps those
 * in registers, where an array passed by pointer went through memory). */
#define AVX2_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7)                                 \
    do {                                                                                \
        __m256i t0_ = _mm256_unpacklo_epi32(r0, r1), t1_ = _mm256_unpackhi_epi32(r0, r1); \
        __m256i t2_ = _mm256_unpacklo_epi32(r2, r3), t3_ = _mm256_unpackhi_epi32(r2, r3); \
        __m256i t4_ = _mm256_unpacklo_epi32(r4, r5), t5_ = _mm256_unpackhi_epi32(r4, r5); \
        __m256i t6_ = _mm256_unpacklo_epi32(r6, r7), t7_ = _mm256_unpackhi_epi32(r6, r7); \
        __m256i u0_ = _mm256_unpacklo_epi64(t0_, t2_), u1_ = _mm256_unpackhi_epi64(t0_, t2_); \
        __m256i u2_ = _mm256_unpacklo_epi64(t1_, t3_), u3_ = _mm256_unpackhi_epi64(t1_, t3_); \
        __m256i u4_ = _mm256_unpacklo_epi64(t4_, t6_), u5_ = _mm256_unpackhi_epi64(t4_, t6_); \
        __m256i u6_ = _mm256_unpacklo_epi64(t5_, t7_), u7_ = _mm256_unpackhi_epi64(t5_, t7_); \
        r0 = _mm256_permute2x128_si256(u0_, u4_, 0x20);                                 \
        r1 = _mm256_permute2x128_si256(u1_, u5_, 0x20);                                 \
        r2 = _mm256_permute2x128_si256(u2_, u6_, 0x20);                                 \
        r3 = _mm256_permute2x128_si256(u3_, u7_, 0x20);                                 \
        r4 = _mm256_permute2x128_si256(u0_, u4_, 0x31);                                 \
        r5 = _mm256_permute2x128_si256(u1_, u5_, 0x31);                                 \
        r6 = _mm256_permute2x128_si256(u2_, u6_, 0x31);                                 \
        r7 = _mm256_permute2x128_si256(u3_, u7_, 0x31);                                 \
    } while (0)

#endif
