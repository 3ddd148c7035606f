/* The AVX-512 ML-DSA hooks of the "avx512" table (contracts in
 * ../mldsa_backend.h) and the 512-bit helpers they share. Compiled with
 * AVX-512F/BW/VL on top of the folder's AVX2 flags (mk/kernels_mldsa.mk);
 * they run only where the dispatcher saw AVX-512F, BW and VL
 * (CS_CPU_AVX512_FVLBW).
 *
 * NTT order: sixteen coefficients a register, the polynomial in sixteen
 * registers; the forward NTT's last four layers run on register pairs after
 * in-register lane permutations (ntt_avx512.c), and the output keeps the
 * lanes where the last permutation left them: register pair m holds the
 * NTT-domain words 32m + 2j (FIPS order) in its first register and
 * 32m + 2j + 1 in its second. cs_mldsa_nttorder_avx512
 * applies the same four permutations to ExpandA's output (the ntt_order
 * hook), so this order is not the AVX2 table's: NTT-domain data of one
 * table must not meet the other's hooks. */
#ifndef CRYPTOSHIM_MLDSA_AVX512_H
#define CRYPTOSHIM_MLDSA_AVX512_H

#include <immintrin.h>

#include "../mldsa_backend.h"

#define AVX512_Q CS_MLDSA_Q
#define AVX512_QINV 58728449 /* q^-1 mod 2^32 */

CS_MLDSA_DECLARE_NTT(avx512);
CS_MLDSA_DECLARE_FUSED(avx512);
CS_MLDSA_DECLARE_ROUNDING(avx512);
CS_MLDSA_DECLARE_ZW1(avx512);

/* The helpers below only in the files compiled for AVX-512 (impl_avx2.c
 * includes this header for the declarations above). */
#if defined(__AVX512F__) || defined(CS_CT_EMULATE_AVX512)

/* Sixteen coefficients; unaligned forms (the generic code's workspaces
 * are 16-byte aligned only). */
static inline __m512i avx512_load(const int32_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

static inline void avx512_store(int32_t *p, __m512i v)
{
    _mm512_storeu_si512((void *)p, v);
}

/* The odd 32-bit lanes of x copied into the even ones below them (the
 * halves vpmuldq reads), on the shuffle port. */
static inline __m512i avx512_odd(__m512i x)
{
    return _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0xF5);
}

/* Signed Montgomery reduction of 64-bit products: pe (even lanes) and po
 * (odd lanes, in the low halves of the 64-bit slots), |p| < q * 2^31.
 * Returns lane-wise p * 2^-32 mod q, |result| < q: the high halves of
 * p - m*q with m = p * q^-1 mod 2^32 (the low halves cancel, so 32-bit
 * subtractions give them exactly). */
static inline __m512i avx512_montred(__m512i pe, __m512i po)
{
    const __m512i q = _mm512_set1_epi32(AVX512_Q), qinv = _mm512_set1_epi32(AVX512_QINV);
    __m512i me = _mm512_mul_epi32(_mm512_mul_epi32(pe, qinv), q);
    __m512i mo = _mm512_mul_epi32(_mm512_mul_epi32(po, qinv), q);
    __m512i re = _mm512_sub_epi32(pe, me), ro = _mm512_sub_epi32(po, mo);
    /* even lanes: the high half of re moved down; odd lanes: ro's */
    return _mm512_mask_shuffle_epi32(ro, 0x5555, re, (_MM_PERM_ENUM)0xF5);
}

#endif /* __AVX512F__ || CS_CT_EMULATE_AVX512 */

#endif
