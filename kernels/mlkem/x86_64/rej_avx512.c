/* SampleNTT's rejection step for the "avx512" table: sixteen 12-bit
 * candidates (24 bytes) a step in 32-bit lanes, the accepted ones packed to
 * the front inside a register (vpcompressd register form), narrowed to 16
 * bits and stored with one plain store. Where fewer than 16 slots remain,
 * the step goes through a spare buffer, so r is never overrun; a tail of
 * under 24 bytes takes the portable step. The outputs are the portable
 * step's exactly. Public data (the matrix comes from rho).
 *
 * Only AVX-512F/BW/VL intrinsics (the bits the table requires): _mm512_castsi256_si512, _mm512_permutexvar_epi32,
 * _mm512_shuffle_epi8, _mm512_srlv_epi32, _mm512_and_si512,
 * _mm512_cmplt_epu32_mask, _mm512_maskz_compress_epi32,
 * _mm512_cvtepi32_epi16, as the ML-DSA sampler uses them. */
#include <immintrin.h>

#include "mlkem_x86.h"

/* The 16 candidates of the 24 bytes at in (readable to in + 32) below q, packed to
 * dst[0..count) (dst has room for 16); returns count. 128-bit lane L takes candidates
 * 4L..4L+3 from bytes 6L..6L+5: dwords 0,1 / 1,2 / 3,4 / 4,5 (vpermd), then a per-lane
 * byte shuffle gives each 32-bit lane its two bytes (starting at byte 0 or 2 of the
 * lane), odd candidates shifted down four bits. */
static inline unsigned rej16(int16_t *dst, const uint8_t *in)
{
    const __m512i spread = _mm512_setr_epi32(0, 1, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 4, 5, 0, 0);
    const __m512i pick = _mm512_setr_epi32(
        0x80800100, 0x80800201, 0x80800403, 0x80800504, 0x80800302, 0x80800403, 0x80800605,
        0x80800706, 0x80800100, 0x80800201, 0x80800403, 0x80800504, 0x80800302, 0x80800403,
        0x80800605, 0x80800706);
    const __m512i odd = _mm512_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4);
    const __m512i m12 = _mm512_set1_epi32(0xFFF), q = _mm512_set1_epi32(CS_MLKEM_Q);
    __m512i v = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)in));
    v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, v), pick);
    v = _mm512_and_si512(_mm512_srlv_epi32(v, odd), m12);
    __mmask16 m = _mm512_cmplt_epu32_mask(v, q);
    _mm256_storeu_si256((__m256i *)dst, _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(m, v)));
    return (unsigned)__builtin_popcount(m);
}

/* As cs_mlkem_rej_uniform_avx2 (buf readable to len + 8). */
unsigned cs_mlkem_rej_uniform_avx512(int16_t *r, unsigned have, const uint8_t *buf, size_t len)
{
    return cs_mlkem_rej_steps(r, have, buf, len, rej16);
}
