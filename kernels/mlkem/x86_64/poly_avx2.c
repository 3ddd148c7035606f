/* The x86-64 elementwise steps and coders: Barrett sums, the keygen's
 * Montgomery correction, Compress_d/Decompress_d in AVX2 lanes, and the bit
 * packing of ByteEncode_d/ByteDecode_d eight coefficients (d bytes) at a
 * time in one 128-bit word. Values as the portable coders give them. */
#include <immintrin.h>

#include "mlkem_x86.h"

#define VEC_W 256
#define VEC_SFX avx2
#include "vec16.h"

/* Compress_d(x) = ((x C + R) >> s) mod 2^d, exact for every x in [0, q) (the constants
 * were searched for exhaustively; kernel_mlkem_impls compares with the portable). */
static const struct {
    uint32_t c, r, s;
} compress_k[12] = {
    [1] = {315, 262025, 19},     [4] = {315, 32718, 16},      [5] = {315, 16339, 15},
    [10] = {161271, 262025, 19}, [11] = {161271, 130992, 18},
};

/* y[i] = Compress_d(c[i] mod q), 32-bit products in eight lanes. */
static void compress_values(uint16_t y[CS_MLKEM_N], const cs_mlkem_poly *p, unsigned d)
{
    const __m256i q = _mm256_set1_epi16(CS_MLKEM_Q);
    const __m256i c = _mm256_set1_epi32((int)compress_k[d].c), r = _mm256_set1_epi32((int)compress_k[d].r);
    const __m256i mask = _mm256_set1_epi32((1 << d) - 1);
    const __m128i s = _mm_cvtsi32_si128((int)compress_k[d].s);
    for (unsigned i = 0; i < 16; i++) {
        __m256i x = load(p, i);
        x = _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16(x, 15), q));
        __m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
        __m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1));
        lo = _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(_mm256_mullo_epi32(lo, c), r), s), mask);
        hi = _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(_mm256_mullo_epi32(hi, c), r), s), mask);
        __m256i v = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
        _mm256_storeu_si256((__m256i *)&y[16 * i], v);
    }
}

/* ByteEncode_d of 256 values for d = 5 or 11 (ML-KEM-1024), whose four values, 4d bits,
 * end mid-byte: per 16, a madd joins pairs into 2d bits, a variable shift and a 64-bit shift
 * join those into 4d, the odd 64-bit lanes move up four bits so their bytes line up with the
 * even lanes' last half byte, and two byte shuffles ORed give d bytes per 128-bit lane. */
static void pack_odd(uint8_t *out, const uint16_t *y, const unsigned d)
{
    uint8_t buf[32 * 11 + 16];
    const int n = (int)d; /* whole bytes of an even 64-bit lane */
    const __m256i pair = _mm256_set1_epi32(1 | 1 << (d + 16));
    const __m256i sh = _mm256_setr_epi32(32 - 2 * n, 0, 32 - 2 * n, 0, 32 - 2 * n, 0, 32 - 2 * n, 0);
    const __m128i sh64 = _mm_cvtsi32_si128(32 - 2 * n);
    const __m256i up = _mm256_setr_epi64x(0, 4, 0, 4);
    /* d = 5: bytes 0-2 | 8-10 at 2-4; d = 11: bytes 0-5 | 8-13 at 5-10 */
    const __m256i even = d == 5 ? _mm256_setr_epi8(0, 1, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                   0, 1, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
                                : _mm256_setr_epi8(0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                   0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i odd = d == 5 ? _mm256_setr_epi8(-1, -1, 8, 9, 10, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                  -1, -1, 8, 9, 10, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
                               : _mm256_setr_epi8(-1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1, -1,
                                                  -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1, -1);
    for (unsigned i = 0; i < 16; i++) {
        __m256i v = _mm256_madd_epi16(_mm256_load_si256((const __m256i *)&y[16 * i]), pair);
        v = _mm256_sllv_epi64(_mm256_srl_epi64(_mm256_sllv_epi32(v, sh), sh64), up);
        v = _mm256_or_si256(_mm256_shuffle_epi8(v, even), _mm256_shuffle_epi8(v, odd));
        _mm_storeu_si128((__m128i *)(buf + 2 * d * i), _mm256_castsi256_si128(v));
        _mm_storeu_si128((__m128i *)(buf + 2 * d * i + d), _mm256_extracti128_si256(v, 1));
    }
    memcpy(out, buf, 32 * d);
}

/* ByteEncode_10 of 256 values: per 16, a madd joins pairs into 20 bits, a variable shift
 * and a 64-bit shift join those into 40, a byte shuffle keeps five bytes of each eight. */
static void pack10(uint8_t out[320], const uint16_t *y)
{
    uint8_t buf[320 + 16];
    const __m256i pair = _mm256_set1_epi32(1 | 1024 << 16), sh = _mm256_setr_epi32(12, 0, 12, 0, 12, 0, 12, 0);
    const __m256i keep = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                          0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    for (unsigned i = 0; i < 16; i++) {
        __m256i v = _mm256_load_si256((const __m256i *)&y[16 * i]);
        v = _mm256_srli_epi64(_mm256_sllv_epi32(_mm256_madd_epi16(v, pair), sh), 12);
        v = _mm256_shuffle_epi8(v, keep);
        _mm_storeu_si128((__m128i *)(buf + 20 * i), _mm256_castsi256_si128(v));
        _mm_storeu_si128((__m128i *)(buf + 20 * i + 10), _mm256_extracti128_si256(v, 1));
    }
    memcpy(out, buf, 320);
}

/* ByteEncode_4 of 256 values: two saturating packs and a byte madd per 64 values. */
static void pack4(uint8_t out[128], const uint16_t *y)
{
    const __m256i nib = _mm256_set1_epi16(0x1001), order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (unsigned i = 0; i < 4; i++) {
        const __m256i *v = (const __m256i *)&y[64 * i];
        __m256i p0 = _mm256_maddubs_epi16(_mm256_packus_epi16(_mm256_load_si256(v), _mm256_load_si256(v + 1)), nib);
        __m256i p1 = _mm256_maddubs_epi16(_mm256_packus_epi16(_mm256_load_si256(v + 2), _mm256_load_si256(v + 3)), nib);
        __m256i r = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p0, p1), order);
        _mm256_storeu_si256((__m256i *)(out + 32 * i), r);
    }
}

/* ByteEncode_d(Compress_d(p)). */
void cs_mlkem_compress_avx2(uint8_t *out, const cs_mlkem_poly *p, unsigned d)
{
    uint16_t y[CS_MLKEM_N] __attribute__((aligned(32)));
    compress_values(y, p, d);
    switch (d) { /* constant d: each packer is unrolled */
    case 1: /* bit 0 of each value to its lane's sign, then one movemask per 32 */
        for (unsigned i = 0; i < 8; i++) {
            __m256i a = _mm256_slli_epi16(_mm256_load_si256((const __m256i *)&y[32 * i]), 15);
            __m256i b = _mm256_slli_epi16(_mm256_load_si256((const __m256i *)&y[32 * i + 16]), 15);
            __m256i v = _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8);
            uint32_t m = (uint32_t)_mm256_movemask_epi8(v);
            memcpy(out + 4 * i, &m, 4);
        }
        break;
    case 4: pack4(out, y); break;
    case 5: pack_odd(out, y, 5); break;
    case 10: pack10(out, y); break;
    default: pack_odd(out, y, 11); break;
    }
}

/* Decompress_d of y (|y| < 2^d, in lanes already shifted left by 15 - d): the rounding
 * multiply gives (y q 2^(15-d) + 2^14) >> 15 = (y q + 2^(d-1)) >> d exactly. */
static inline __m256i decompress_shifted(__m256i ys)
{
    return _mm256_mulhrs_epi16(ys, _mm256_set1_epi16(CS_MLKEM_Q));
}

/* The loop of decompress10 and decompress5: n bytes (at buf, readable 16 past the last)
 * hold eight values, two such groups a register; idx gives each lane its value's two
 * bytes, mul moves the value to the top bits, m keeps it after a shift by one. */
static inline __attribute__((always_inline)) void decompress_pairs(cs_mlkem_poly *p,
                                                                   const uint8_t *buf, unsigned n,
                                                                   __m256i idx, __m256i mul,
                                                                   __m256i m)
{
    for (unsigned i = 0; i < 16; i++) {
        __m256i x = _mm256_loadu2_m128i((const __m128i *)(buf + 2 * n * i + n),
                                        (const __m128i *)(buf + 2 * n * i));
        x = _mm256_mullo_epi16(_mm256_shuffle_epi8(x, idx), mul);
        store(p, i, decompress_shifted(_mm256_and_si256(_mm256_srli_epi16(x, 1), m)));
    }
}

/* Decompress_10(ByteDecode_10(in)): ten bytes per eight values, each value's two bytes
 * shuffled into its lane and aligned by a multiply (no 16-bit variable shift in AVX2). */
static void decompress10(cs_mlkem_poly *p, const uint8_t in[320])
{
    uint8_t buf[320 + 16];
    memcpy(buf, in, 320);
    const __m256i idx = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 0, 1, 1, 2,
                                         2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9);
    const __m256i mul = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
    decompress_pairs(p, buf, 10, idx, mul, _mm256_set1_epi16(0x7FE0)); /* value at bits 6-15 */
}

/* Decompress_4(ByteDecode_4(in)): each byte into two lanes, nibbles aligned by a multiply. */
static void decompress4(cs_mlkem_poly *p, const uint8_t in[128])
{
    const __m128i dup = _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m256i mul = _mm256_setr_epi16(2048, 128, 2048, 128, 2048, 128, 2048, 128, 2048, 128,
                                          2048, 128, 2048, 128, 2048, 128);
    const __m256i m = _mm256_set1_epi16(0x7800);
    for (unsigned i = 0; i < 16; i++) {
        __m128i b = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(in + 8 * i)), dup);
        __m256i x = _mm256_mullo_epi16(_mm256_cvtepu8_epi16(b), mul);
        store(p, i, decompress_shifted(_mm256_and_si256(x, m)));
    }
}

/* Decompress_5(ByteDecode_5(in)): five bytes per eight values, each value's two bytes
 * shuffled into its lane and aligned by a multiply, as decompress10. */
static void decompress5(cs_mlkem_poly *p, const uint8_t in[160])
{
    uint8_t buf[160 + 16];
    memcpy(buf, in, 160);
    const __m256i idx = _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 0, 1, 0, 1,
                                         1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5);
    const __m256i mul = _mm256_setr_epi16(2048, 64, 512, 16, 128, 1024, 32, 256, 2048, 64, 512, 16,
                                          128, 1024, 32, 256);
    decompress_pairs(p, buf, 5, idx, mul, _mm256_set1_epi16(0x7C00)); /* value at bits 11-15 */
}

/* Decompress_11(ByteDecode_11(in)): eight values (11 bytes) a register of 32-bit lanes, each
 * lane given the three bytes its value spans and shifted by its own count; then (y q + 2^10)
 * >> 11 by madd. */
static void decompress11(cs_mlkem_poly *p, const uint8_t in[352])
{
    uint8_t buf[352 + 16];
    memcpy(buf, in, 352);
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 1, 2, 3, -1, 2, 3, 4, -1, 4, 5, 6, -1, 5, 6,
                                         7, -1, 6, 7, 8, -1, 8, 9, 10, -1, 9, 10, 11, -1);
    const __m256i shift = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    const __m256i mask = _mm256_set1_epi32(0x7FF), one = _mm256_set1_epi32(1 << 16);
    const __m256i k = _mm256_set1_epi32(CS_MLKEM_Q | 1024 << 16);
    for (unsigned i = 0; i < 16; i++) {
        __m256i v[2];
        for (unsigned h = 0; h < 2; h++) {
            __m128i b = _mm_loadu_si128((const __m128i *)(buf + 22 * i + 11 * h));
            __m256i x = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(b), idx);
            x = _mm256_or_si256(_mm256_and_si256(_mm256_srlv_epi32(x, shift), mask), one);
            v[h] = _mm256_srli_epi32(_mm256_madd_epi16(x, k), 11); /* [y, 1] . [q, 2^10] */
        }
        store(p, i, _mm256_permute4x64_epi64(_mm256_packus_epi32(v[0], v[1]), 0xD8));
    }
}

/* Decompress_1(ByteDecode_1(in)), the message: each bit selects (q + 1) / 2 by mask. */
static void decompress1(cs_mlkem_poly *p, const uint8_t in[32])
{
    const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                           4096, 8192, 16384, -32768);
    const __m256i half = _mm256_set1_epi16((CS_MLKEM_Q + 1) / 2);
    for (unsigned i = 0; i < 16; i++) {
        __m256i b = _mm256_set1_epi16((int16_t)(in[2 * i] | in[2 * i + 1] << 8));
        __m256i on = _mm256_cmpeq_epi16(_mm256_and_si256(b, bits), bits);
        store(p, i, _mm256_and_si256(on, half));
    }
}

/* Decompress_d(ByteDecode_d(in)), d = 1, 4, 5, 10, 11, each by shuffles. */
void cs_mlkem_decompress_avx2(cs_mlkem_poly *p, const uint8_t *in, unsigned d)
{
    switch (d) {
    case 1: decompress1(p, in); break;
    case 4: decompress4(p, in); break;
    case 5: decompress5(p, in); break;
    case 10: decompress10(p, in); break;
    default: decompress11(p, in); break;
    }
}

/* ByteEncode_12 of p mod q (|c| < q): per 16 values, a madd joins pairs into 24 bits and a
 * byte shuffle keeps three bytes of each four; 12 bytes a 128-bit half. */
void cs_mlkem_tobytes_avx2(uint8_t out[CS_MLKEM_POLY_BYTES], const cs_mlkem_poly *p)
{
    uint8_t buf[CS_MLKEM_POLY_BYTES + 16];
    const __m256i q = _mm256_set1_epi16(CS_MLKEM_Q), pair = _mm256_set1_epi32(1 | 4096 << 16);
    const __m256i keep = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    for (unsigned i = 0; i < 16; i++) {
        __m256i x = load(p, i);
        x = _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16(x, 15), q));
        x = _mm256_shuffle_epi8(_mm256_madd_epi16(x, pair), keep);
        _mm_storeu_si128((__m128i *)(buf + 24 * i), _mm256_castsi256_si128(x));
        _mm_storeu_si128((__m128i *)(buf + 24 * i + 12), _mm256_extracti128_si256(x, 1));
    }
    memcpy(out, buf, CS_MLKEM_POLY_BYTES);
}

/* ByteDecode_12, unreduced: 24 bytes (16 values) a step, each 128-bit half holding the
 * 12 bytes of its eight values, spread to 16-bit lanes by one byte shuffle. Reads only
 * the 384 bytes of in. */
void cs_mlkem_frombytes_avx2(cs_mlkem_poly *p, const uint8_t in[CS_MLKEM_POLY_BYTES])
{
    const __m256i idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5,
                                         5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
    const __m256i m12 = _mm256_set1_epi16(0xFFF);
    for (unsigned i = 0; i < 16; i++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(in + 24 * i));        /* bytes 0-15 */
        __m128i hi = _mm_loadl_epi64((const __m128i *)(in + 24 * i + 16));   /* bytes 16-23 */
        __m256i x = _mm256_setr_m128i(lo, _mm_alignr_epi8(hi, lo, 8));      /* 0-15 | 8-23 */
        x = _mm256_shuffle_epi8(x, idx);
        x = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xAA);
        store(p, i, _mm256_and_si256(x, m12));
    }
}
