/* SimpleBitPack(w1) for the "avx512" table: sixty-four coefficients a
 * step, the bit fields merged by shifts inside 64-bit lanes and the bytes
 * gathered by lane permutations (AVX-512F/BW; no VBMI, which the table's
 * feature bit does not promise). w1 is computed from secret-dependent
 * values but packed in full: no branch or index on it. */
#include "avx512.h"

#define GAMMA2_88 ((AVX512_Q - 1) / 88)

/* 4 bits: each 64-bit lane c_2i | c_2i+1 << 32 becomes the byte
 * c_2i | c_2i+1 << 4 (c < 16), vpmovqb keeps the low byte of each lane. */
static void pack_w1_4(uint8_t *r, const cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i += 16) {
        __m512i x = avx512_load(a->c + i);
        x = _mm512_or_si512(x, _mm512_srli_epi64(x, 28));
        _mm_storel_epi64((__m128i *)(r + i / 2), _mm512_cvtepi64_epi8(x));
    }
}

/* 6 bits: per 128-bit block c0..c3, the 24-bit c0 | c1 << 6 | c2 << 12 |
 * c3 << 18 in its first word (two 12-bit pairs by 64-bit shifts, the
 * second pair's word moved up by vpshufd), then the first words of four
 * registers' blocks gathered in order (two vpermt2d levels), three bytes
 * of each word kept by vpshufb, and the 48 bytes closed up by vpermd. */
static void pack_w1_6(uint8_t *r, const cs_mldsa_poly *a)
{
    const __m512i first = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512i join = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    const __m512i keep3 = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
    const __m512i close = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    for (unsigned i = 0; i < 256; i += 64) {
        __m512i u[4];
        for (unsigned j = 0; j < 4; j++) {
            __m512i x = avx512_load(a->c + i + 16 * j);
            x = _mm512_or_si512(x, _mm512_srli_epi64(x, 26));   /* c0 | c1 << 6 per lane */
            x = _mm512_mask_shuffle_epi32(x, 0x2222, x, (_MM_PERM_ENUM)0x08); /* word 1 = word 2 */
            u[j] = _mm512_or_si512(x, _mm512_srli_epi64(x, 20));
        }
        __m512i lo = _mm512_permutex2var_epi32(u[0], first, u[1]);
        __m512i hi = _mm512_permutex2var_epi32(u[2], first, u[3]);
        __m512i w = _mm512_permutex2var_epi32(lo, join, hi);
        w = _mm512_permutexvar_epi32(close, _mm512_shuffle_epi8(w, keep3));
        _mm512_mask_storeu_epi32(r + 3 * i / 4, 0x0FFF, w);
    }
}

/* SimpleBitPack(w1): 6 bits for gamma2 = (q-1)/88, else 4 (public gamma2). */
void cs_mldsa_pack_w1_avx512(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2)
{
    if (gamma2 == GAMMA2_88)
        pack_w1_6(r, a);
    else
        pack_w1_4(r, a);
}
