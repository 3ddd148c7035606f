/* SimpleBitPack(w1) and BitUnpack(z) for the "avx512" table: the bit
 * fields merged or split by shifts, the bytes moved by lane permutations
 * and vpshufb (AVX-512F/BW; no VBMI, which the table's feature bit does
 * not promise). The data (w1 from secret-dependent values, y's bytes in
 * ExpandMask) never decides a branch or an index. */
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

/* Byte moves of unpack_z: per 128-bit block (four coefficients), the four
 * bytes holding each coefficient's field, from where the vpermd below put
 * the block's 9 (18-bit) or 10 (20-bit) input bytes. */
static const uint8_t z18_bytes[64] __attribute__((aligned(64))) = {
    0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9,
    1, 2, 3, 4, 3, 4, 5, 6, 5, 6, 7, 8, 7, 8, 9, 10,
    2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10, 11,
    3, 4, 5, 6, 5, 6, 7, 8, 7, 8, 9, 10, 9, 10, 11, 12,
};
static const uint8_t z20_bytes[64] __attribute__((aligned(64))) = {
    0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10,
    2, 3, 4, 5, 4, 5, 6, 7, 7, 8, 9, 10, 9, 10, 11, 12,
    0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10,
    2, 3, 4, 5, 4, 5, 6, 7, 7, 8, 9, 10, 9, 10, 11, 12,
};

/* Sixteen coefficients gamma1 - field from 36 (18-bit) or 40 bytes at g,
 * read by a masked load (nothing past them is touched): vpermd gives each
 * 128-bit block the words holding its bytes, vpshufb each lane its field's
 * four bytes, vpsrlvd and a mask the field. */
static inline __attribute__((always_inline)) __m512i unpack_z16(const uint8_t *g, __mmask64 k,
                                                                __m512i perm, __m512i bytes,
                                                                __m512i sh, __m512i mask,
                                                                __m512i g1)
{
    __m512i v = _mm512_maskz_loadu_epi8(k, g);
    v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(perm, v), bytes);
    return _mm512_sub_epi32(g1, _mm512_and_si512(_mm512_srlv_epi32(v, sh), mask));
}

/* The 256 coefficients from b-bit fields (b = 18 or 20), sixteen per 2b
 * bytes, with that width's permutation, shifts and byte table. */
static inline __attribute__((always_inline)) void unpack_z_bits(cs_mldsa_poly *a, const uint8_t *r,
                                                                unsigned b, __m512i perm,
                                                                __m512i sh,
                                                                const uint8_t *byte_table,
                                                                __m512i g1)
{
    const __m512i bytes = _mm512_loadu_si512((const void *)byte_table);
    const __m512i mask = _mm512_set1_epi32((1 << b) - 1);
    for (unsigned i = 0; i < 16; i++)
        avx512_store(a->c + 16 * i, unpack_z16(r + 2 * b * i, (1ull << (2 * b)) - 1, perm, bytes,
                                               sh, mask, g1));
}

/* BitUnpack(z, gamma1 - 1, gamma1): z = gamma1 - field, 18 or 20 bits. */
void cs_mldsa_unpack_z_avx512(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1)
{
    const __m512i g1 = _mm512_set1_epi32(gamma1);
    if (gamma1 == (1 << 17))
        unpack_z_bits(a, r, 18,
                      _mm512_setr_epi32(0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9),
                      _mm512_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6),
                      z18_bytes, g1);
    else
        unpack_z_bits(a, r, 20,
                      _mm512_setr_epi32(0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10),
                      _mm512_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4),
                      z20_bytes, g1);
}
