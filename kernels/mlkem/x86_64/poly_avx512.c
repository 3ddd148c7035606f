/* The AVX-512 elementwise steps and coders of ML-KEM, 32 coefficients a
 * vector: Barrett sums, the keygen's Montgomery correction, ByteEncode_12/
 * ByteDecode_12, and Compress_d/Decompress_d for d = 1, 4 and 10 (the message
 * and the ciphertext of ML-KEM-512 and -768); d = 5 and 11 (ML-KEM-1024) are
 * the AVX2 coders'. Values as the portable coders give them; only F/BW
 * instructions (no VBMI byte permutes). No branch or index on the data. */
#include <immintrin.h>
#include <string.h>

#include "mlkem_x86.h"

#define VEC_W 512
#define VEC_SFX avx512
#include "vec16.h"

/* x mod q in [0, q) for |x| < q. */
static inline __m512i canon(__m512i x)
{
    return _mm512_add_epi16(x, _mm512_and_si512(_mm512_srai_epi16(x, 15),
                                                _mm512_set1_epi16(CS_MLKEM_Q)));
}

/* ByteEncode_12 of p mod q (|c| < q): per 32 values, a madd joins pairs into 24 bits,
 * a byte shuffle keeps three bytes of each four (12 a 128-bit lane), a dword permute
 * closes the gaps, and a masked store writes the 48 bytes. */
void cs_mlkem_tobytes_avx512(uint8_t out[CS_MLKEM_POLY_BYTES], const cs_mlkem_poly *p)
{
    const __m512i pair = _mm512_set1_epi32(1 | 4096 << 16);
    const __m512i keep = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
    const __m512i close = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    for (unsigned i = 0; i < 8; i++) {
        __m512i x = _mm512_shuffle_epi8(_mm512_madd_epi16(canon(load(p, i)), pair), keep);
        _mm512_mask_storeu_epi32(out + 48 * i, 0x0FFF, _mm512_permutexvar_epi32(close, x));
    }
}

/* ByteDecode_12, unreduced: 48 bytes (32 values) a step, read by a masked load, 12
 * bytes moved to each 128-bit lane, spread to 16-bit lanes by a byte shuffle, the odd
 * values shifted down by 4. Reads only the 384 bytes of in. */
void cs_mlkem_frombytes_avx512(cs_mlkem_poly *p, const uint8_t in[CS_MLKEM_POLY_BYTES])
{
    const __m512i spread = _mm512_setr_epi32(0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11);
    const __m512i idx = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11));
    const __m512i sh = _mm512_set1_epi32(4 << 16);
    const __m512i m12 = _mm512_set1_epi16(0xFFF);
    for (unsigned i = 0; i < 8; i++) {
        __m512i x = _mm512_maskz_loadu_epi32(0x0FFF, in + 48 * i);
        x = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, x), idx);
        store(p, i, _mm512_and_si512(_mm512_srlv_epi16(x, sh), m12));
    }
}

/* Compress_d(x) = ((x C + R) >> s) mod 2^d, exact for every x in [0, q) (the constants
 * of poly_avx2.c; kernel_mlkem_avx512 compares every value with the portable). */
static inline __m512i compress_half(__m256i x, uint32_t c, uint32_t r, unsigned s)
{
    __m512i w = _mm512_cvtepu16_epi32(x);
    w = _mm512_add_epi32(_mm512_mullo_epi32(w, _mm512_set1_epi32((int)c)),
                         _mm512_set1_epi32((int)r));
    return _mm512_srli_epi32(w, s);
}

/* Compress_d of the 32 values of vector i of p, in order in 16-bit lanes. */
static inline __m512i compress32(const cs_mlkem_poly *p, unsigned i, unsigned d)
{
    __m512i x = canon(load(p, i)), lo, hi;
    __m256i x0 = _mm512_castsi512_si256(x), x1 = _mm512_extracti64x4_epi64(x, 1);
    if (d == 1) {
        lo = compress_half(x0, 315, 262025, 19);
        hi = compress_half(x1, 315, 262025, 19);
    } else if (d == 4) {
        lo = compress_half(x0, 315, 32718, 16);
        hi = compress_half(x1, 315, 32718, 16);
    } else {
        lo = compress_half(x0, 161271, 262025, 19);
        hi = compress_half(x1, 161271, 262025, 19);
    }
    const __m512i mask = _mm512_set1_epi32((1 << d) - 1);
    lo = _mm512_and_si512(lo, mask);
    hi = _mm512_and_si512(hi, mask);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(lo)),
                              _mm512_cvtepi32_epi16(hi), 1);
}

/* ByteEncode_1(Compress_1(p)): each value's bit to its lane's top, one mask a 32. */
static void compress1(uint8_t out[32], const cs_mlkem_poly *p)
{
    for (unsigned i = 0; i < 8; i++) {
        uint32_t m = (uint32_t)_mm512_movepi16_mask(_mm512_slli_epi16(compress32(p, i, 1), 15));
        memcpy(out + 4 * i, &m, 4);
    }
}

/* ByteEncode_4(Compress_4(p)): two values a byte by a shift, then a dword-to-byte
 * narrowing, 16 bytes a 32. */
static void compress4(uint8_t out[128], const cs_mlkem_poly *p)
{
    for (unsigned i = 0; i < 8; i++) {
        __m512i y = compress32(p, i, 4);
        y = _mm512_or_si512(y, _mm512_srli_epi32(y, 12));
        _mm_storeu_si128((__m128i *)(out + 16 * i), _mm512_cvtepi32_epi8(y));
    }
}

/* ByteEncode_10(Compress_10(p)): 40 bytes a 32 values; a madd joins pairs into 20 bits
 * a dword, a variable and a 64-bit shift join those into 40 bits a qword, a byte shuffle
 * keeps five bytes of each eight (ten a 128-bit lane), four overlapping stores. */
static void compress10(uint8_t out[320], const cs_mlkem_poly *p)
{
    uint8_t buf[320 + 6];
    const __m512i pair = _mm512_set1_epi32(1 | 1024 << 16);
    const __m512i sh = _mm512_set1_epi64(12);
    const __m512i keep = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1));
    for (unsigned i = 0; i < 8; i++) {
        __m512i x = _mm512_madd_epi16(compress32(p, i, 10), pair);
        x = _mm512_srli_epi64(_mm512_sllv_epi32(x, sh), 12);
        x = _mm512_shuffle_epi8(x, keep);
        uint8_t *o = buf + 40 * i;
        _mm_storeu_si128((__m128i *)o, _mm512_castsi512_si128(x));
        _mm_storeu_si128((__m128i *)(o + 10), _mm512_extracti32x4_epi32(x, 1));
        _mm_storeu_si128((__m128i *)(o + 20), _mm512_extracti32x4_epi32(x, 2));
        _mm_storeu_si128((__m128i *)(o + 30), _mm512_extracti32x4_epi32(x, 3));
    }
    memcpy(out, buf, 320);
}

/* ByteEncode_d(Compress_d(p)). */
void cs_mlkem_compress_avx512(uint8_t *out, const cs_mlkem_poly *p, unsigned d)
{
    switch (d) {
    case 1: compress1(out, p); break;
    case 4: compress4(out, p); break;
    case 10: compress10(out, p); break;
    default: cs_mlkem_compress_avx2(out, p, d); break;
    }
}

/* Decompress_d of y in lanes shifted left by 15 - d: the rounding multiply gives
 * (y q 2^(15-d) + 2^14) >> 15 = (y q + 2^(d-1)) >> d exactly. */
static inline __m512i decompress_shifted(__m512i ys)
{
    return _mm512_mulhrs_epi16(ys, _mm512_set1_epi16(CS_MLKEM_Q));
}

/* Decompress_1(ByteDecode_1(in)), the message (secret): lane j's bit shifted to bit 0,
 * negated into a mask of (q + 1) / 2. */
static void decompress1(cs_mlkem_poly *p, const uint8_t in[32])
{
    const __m512i sh = _mm512_setr_epi32(0x10000, 0x30002, 0x50004, 0x70006, 0x90008,
                                         0xB000A, 0xD000C, 0xF000E, 0x10000, 0x30002,
                                         0x50004, 0x70006, 0x90008, 0xB000A, 0xD000C, 0xF000E);
    const __m512i one = _mm512_set1_epi16(1), half = _mm512_set1_epi16((CS_MLKEM_Q + 1) / 2);
    for (unsigned i = 0; i < 8; i++) {
        uint16_t w0, w1;
        memcpy(&w0, in + 4 * i, 2);
        memcpy(&w1, in + 4 * i + 2, 2);
        __m512i b = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set1_epi16((int16_t)w0)),
                                       _mm256_set1_epi16((int16_t)w1), 1);
        b = _mm512_and_si512(_mm512_srlv_epi16(b, sh), one);
        store(p, i, _mm512_and_si512(_mm512_sub_epi16(_mm512_setzero_si512(), b), half));
    }
}

/* Decompress_4(ByteDecode_4(in)): 16 bytes widened to dwords, each byte's two nibbles
 * into the dword's two 16-bit halves. */
static void decompress4(cs_mlkem_poly *p, const uint8_t in[128])
{
    const __m512i m = _mm512_set1_epi32(0x000F000F);
    for (unsigned i = 0; i < 8; i++) {
        __m512i x = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(in + 16 * i)));
        x = _mm512_and_si512(_mm512_or_si512(x, _mm512_slli_epi32(x, 12)), m);
        store(p, i, decompress_shifted(_mm512_slli_epi16(x, 11)));
    }
}

/* Decompress_10(ByteDecode_10(in)): 40 bytes (32 values) by a masked load; the ten
 * bytes of each eight values moved to a 128-bit lane by a dword permute, each value's
 * two bytes shuffled into its lane and aligned by a variable shift. */
static void decompress10(cs_mlkem_poly *p, const uint8_t in[320])
{
    /* lane j needs bytes 10j..10j+9: dwords from 10j/4 down, at byte offset 0 or 2 */
    const __m512i spread = _mm512_setr_epi32(0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 9);
    const __m512i idx = _mm512_setr_epi32(
        0x02010100, 0x04030302, 0x07060605, 0x09080807, 0x04030302, 0x06050504, 0x09080807,
        0x0B0A0A09, 0x02010100, 0x04030302, 0x07060605, 0x09080807, 0x04030302, 0x06050504,
        0x09080807, 0x0B0A0A09);
    const __m512i sh = _mm512_set1_epi64(0x0006000400020000);
    const __m512i m = _mm512_set1_epi16(0x3FF);
    for (unsigned i = 0; i < 8; i++) {
        __m512i x = _mm512_maskz_loadu_epi32(0x03FF, in + 40 * i);
        x = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, x), idx);
        x = _mm512_and_si512(_mm512_srlv_epi16(x, sh), m);
        store(p, i, decompress_shifted(_mm512_slli_epi16(x, 5)));
    }
}

/* Decompress_d(ByteDecode_d(in)). */
void cs_mlkem_decompress_avx512(cs_mlkem_poly *p, const uint8_t *in, unsigned d)
{
    switch (d) {
    case 1: decompress1(p, in); break;
    case 4: decompress4(p, in); break;
    case 10: decompress10(p, in); break;
    default: cs_mlkem_decompress_avx2(p, in, d); break;
    }
}
