/* AVX2 bit packing: w1 (every signing attempt and verification), z
 * unpacking (ExpandMask, verification), t1, t0 and the eta-bounded s1/s2
 * (keygen and every signature's key decoding), z. FIPS 204 bit order:
 * coefficient i at bits [ib, (i+1)b), LSB first. */
#include <string.h>

#include "avx2.h"
#include "../mldsa_portable.h"

/* Packs 8 b-bit lanes (b <= 16) into b bytes at r: pairs of lanes are
 * merged inside 64-bit slots, then pairs of slots inside each 128-bit
 * half (4b bits each), then the two halves in a 128-bit scalar. */
static inline __attribute__((always_inline)) void pack8(uint8_t *r, __m256i v, unsigned b)
{
    __m256i t = _mm256_or_si256(v, _mm256_srli_epi64(v, 32 - b));
    t = _mm256_and_si256(t, _mm256_set1_epi64x((1LL << (2 * b)) - 1));
    t = _mm256_or_si256(t, _mm256_slli_epi64(_mm256_bsrli_epi128(t, 8), 2 * b));
    uint64_t lo = (uint64_t)_mm256_extract_epi64(t, 0), hi = (uint64_t)_mm256_extract_epi64(t, 2);
    unsigned __int128 x = (unsigned __int128)lo | (unsigned __int128)hi << (4 * b);
    memcpy(r, &x, b); /* x86-64: little-endian */
}

/* Packs base - a_i in b bits (b <= 15) into 32*b bytes at r: each group
 * of 8 is stored as 16 bytes, the surplus overwritten by the next group;
 * the last group goes through a buffer so nothing past r[32*b) is
 * written. */
static inline __attribute__((always_inline)) void pack_sub_all(uint8_t *r, const cs_mldsa_poly *a,
                                                               unsigned b, int32_t base)
{
    const __m256i vb = _mm256_set1_epi32(base);
    uint8_t tmp[16];
    for (unsigned i = 0; i < 31; i++)
        _mm_storeu_si128((__m128i *)(r + b * i),
                         avx2_merge8(_mm256_sub_epi32(vb, avx2_load(a->c + 8 * i)), b));
    _mm_storeu_si128((__m128i *)tmp, avx2_merge8(_mm256_sub_epi32(vb, avx2_load(a->c + 248)), b));
    memcpy(r + 31 * b, tmp, b);
}

/* SimpleBitPack(w1): 6 bits for gamma2 = (q-1)/88, else 4. */
void cs_mldsa_pack_w1_avx2(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma2)
{
    const unsigned b = gamma2 == (AVX2_Q - 1) / 88 ? 6 : 4;
#define W1_LOOP(B)                                                                      \
    for (unsigned i = 0; i < 256; i += 32)                                              \
        avx2_pack32(r + (B) * i / 8, avx2_load(a->c + i), avx2_load(a->c + i + 8),      \
                    avx2_load(a->c + i + 16), avx2_load(a->c + i + 24), (B))
    if (b == 6)
        W1_LOOP(6);
    else
        W1_LOOP(4);
#undef W1_LOOP
}

/* SimpleBitPack(t1, 10 bits). */
void cs_mldsa_pack_t1_avx2(uint8_t *r, const cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 32; i++)
        pack8(r + 10 * i, avx2_load(a->c + 8 * i), 10);
}

/* One group of 8 fields of gb bytes at g: the low 128-bit half reads 16
 * bytes at g, the high half 16 bytes at g + hioff; idx picks, per lane,
 * the 4 bytes holding its field, which then moves down by sh and is
 * masked. */
static inline __m256i unpack8(const uint8_t *g, unsigned hioff, __m256i idx, __m256i sh,
                              __m256i mask)
{
    __m128i lo = _mm_loadu_si128((const __m128i *)g);
    __m128i hi = _mm_loadu_si128((const __m128i *)(g + hioff));
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    return _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(v, idx), sh), mask);
}

/* Unpacks 32 groups of gb bytes into a (each lane base - field if neg,
 * else field). Groups whose 16-byte reads would pass the end of the
 * 32*gb input are first copied into a padded buffer. */
static inline __attribute__((always_inline)) void unpack_all(cs_mldsa_poly *a, const uint8_t *r,
                                                             unsigned gb, unsigned hioff,
                                                             __m256i idx, __m256i sh,
                                                             unsigned bits, int32_t base)
{
    const __m256i mask = _mm256_set1_epi32((int32_t)((1u << bits) - 1));
    const __m256i vb = _mm256_set1_epi32(base);
    for (unsigned k = 0; k < 32; k++) {
        const uint8_t *g = r + gb * k;
        uint8_t tmp[32];
        if (gb * k + hioff + 16 > 32 * gb) {
            memset(tmp, 0, sizeof tmp);
            memcpy(tmp, g, gb);
            g = tmp;
        }
        __m256i v = unpack8(g, hioff, idx, sh, mask);
        if (base)
            v = _mm256_sub_epi32(vb, v);
        avx2_store(a->c + 8 * k, v);
    }
}

/* z = gamma1 - field, 18 or 20 bits. */
void cs_mldsa_unpack_z_avx2(cs_mldsa_poly *a, const uint8_t *r, int32_t gamma1)
{
    if (gamma1 == (1 << 17)) {
        const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 0, 1,
                                             2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9);
        const __m256i sh = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        unpack_all(a, r, 18, 9, idx, sh, 18, gamma1);
    } else {
        const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10, 0,
                                             1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10);
        const __m256i sh = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
        unpack_all(a, r, 20, 10, idx, sh, 20, gamma1);
    }
}

/* t1: 10-bit fields. */
void cs_mldsa_unpack_t1_avx2(cs_mldsa_poly *a, const uint8_t *r)
{
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 0, 1, 2,
                                         3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6);
    const __m256i sh = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    unpack_all(a, r, 10, 5, idx, sh, 10, 0);
}

/* t0: 2^12 - t0 in 13 bits. */
void cs_mldsa_pack_t0_avx2(uint8_t *r, const cs_mldsa_poly *a)
{
    pack_sub_all(r, a, 13, 1 << 12);
}

void cs_mldsa_unpack_t0_avx2(cs_mldsa_poly *a, const uint8_t *r)
{
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 3, 4, 5, 6, 4, 5, 6, 7, 0, 1, 2,
                                         3, 2, 3, 4, 5, 3, 4, 5, 6, 5, 6, 7, 8);
    const __m256i sh = _mm256_setr_epi32(0, 5, 2, 7, 4, 1, 6, 3);
    unpack_all(a, r, 13, 6, idx, sh, 13, 1 << 12);
}

/* s1, s2: eta - s in 3 bits (eta 2: 8 coefficients per 3 bytes) or 4. */
void cs_mldsa_pack_eta_avx2(uint8_t *r, const cs_mldsa_poly *a, unsigned eta)
{
    const __m256i base = _mm256_set1_epi32((int)eta);
#define ETA_LOOP(B)                                                                     \
    for (unsigned i = 0; i < 256; i += 32)                                              \
        avx2_pack32(r + (B) * i / 8, _mm256_sub_epi32(base, avx2_load(a->c + i)),       \
                    _mm256_sub_epi32(base, avx2_load(a->c + i + 8)),                    \
                    _mm256_sub_epi32(base, avx2_load(a->c + i + 16)),                   \
                    _mm256_sub_epi32(base, avx2_load(a->c + i + 24)), (B))
    if (eta == 2)
        ETA_LOOP(3);
    else
        ETA_LOOP(4);
#undef ETA_LOOP
}

/* eta - field for each 3- or 4-bit field, each group of 8 fields one 24-
 * or 32-bit word; returns nonzero iff some field exceeds 2*eta (the sign
 * bits of eta + coefficient, ORed lane-wise: no branch on the fields). */
static inline __attribute__((always_inline)) int unpack_eta8(cs_mldsa_poly *a, const uint8_t *r,
                                                             unsigned gb, int32_t eta)
{
    __m256i bad = _mm256_setzero_si256();
    const __m256i base = _mm256_set1_epi32(eta);
    const __m256i sh = gb == 3 ? _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21)
                               : _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256i mask = _mm256_set1_epi32(gb == 3 ? 7 : 15);
    for (unsigned i = 0; i < 32; i++) {
        const uint8_t *g = r + gb * i;
        /* assembled in a register: a 3-byte copy through memory would
         * defeat store forwarding */
        uint32_t w = (uint32_t)g[0] | (uint32_t)g[1] << 8 | (uint32_t)g[2] << 16;
        if (gb == 4)
            w |= (uint32_t)g[3] << 24;
        __m256i v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)w), sh), mask);
        __m256i c = _mm256_sub_epi32(base, v);
        bad = _mm256_or_si256(bad, _mm256_add_epi32(c, base));
        avx2_store(a->c + 8 * i, c);
    }
    /* movemask of the sign bits: a data-independent instruction */
    return _mm256_movemask_ps(_mm256_castsi256_ps(bad)) != 0;
}

int cs_mldsa_unpack_eta_avx2(cs_mldsa_poly *a, const uint8_t *r, unsigned eta)
{
    if (eta == 2)
        return unpack_eta8(a, r, 3, 2);
    return unpack_eta8(a, r, 4, (int32_t)eta);
}

/* Packs 8 b-bit lanes (16 < b <= 20) into b bytes: pairs merged in 64-bit
 * slots (2b bits), then each pair of slots (4b bits, up to 80) in a
 * 128-bit scalar, written as two runs of b/2 bytes. */
static inline __attribute__((always_inline)) void pack8_wide(uint8_t *r, __m256i v, unsigned b)
{
    /* (the shift trick of pack8 needs b <= 16: here the halves are split) */
    __m256i t = _mm256_or_si256(_mm256_and_si256(v, _mm256_set1_epi64x(0xFFFFFFFF)),
                                _mm256_slli_epi64(_mm256_srli_epi64(v, 32), b));
    uint64_t s0 = (uint64_t)_mm256_extract_epi64(t, 0), s1 = (uint64_t)_mm256_extract_epi64(t, 1);
    uint64_t s2 = (uint64_t)_mm256_extract_epi64(t, 2), s3 = (uint64_t)_mm256_extract_epi64(t, 3);
    unsigned __int128 lo = (unsigned __int128)s0 | (unsigned __int128)s1 << (2 * b);
    unsigned __int128 hi = (unsigned __int128)s2 | (unsigned __int128)s3 << (2 * b);
    memcpy(r, &lo, b / 2);
    memcpy(r + b / 2, &hi, b / 2);
}

/* z: gamma1 - z in 18 bits (gamma1 = 2^17) or 20 bits (2^19). */
void cs_mldsa_pack_z_avx2(uint8_t *r, const cs_mldsa_poly *a, int32_t gamma1)
{
    const __m256i base = _mm256_set1_epi32(gamma1);
    if (gamma1 == (1 << 17)) {
        for (unsigned i = 0; i < 32; i++)
            pack8_wide(r + 18 * i, _mm256_sub_epi32(base, avx2_load(a->c + 8 * i)), 18);
    } else {
        for (unsigned i = 0; i < 32; i++)
            pack8_wide(r + 20 * i, _mm256_sub_epi32(base, avx2_load(a->c + 8 * i)), 20);
    }
}

/* t_row_finish: x = t + s2 to [0, q) (reduce32's rounding quotient, then
 * q added to negatives), Power2Round, t0 stored and t1 packed from the
 * register, 16-byte overlapping stores as in pack_sub_all. */
void cs_mldsa_t_row_finish_avx2(uint8_t *r, cs_mldsa_poly *t0, const cs_mldsa_poly *t,
                                const cs_mldsa_poly *s2)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q), half = _mm256_set1_epi32(1 << 22);
    const __m256i rnd = _mm256_set1_epi32((1 << (CS_MLDSA_D - 1)) - 1);
    uint8_t tmp[16];
    for (unsigned i = 0; i < 32; i++) {
        __m256i x = _mm256_add_epi32(avx2_load(t->c + 8 * i), avx2_load(s2->c + 8 * i));
        __m256i k = _mm256_srai_epi32(_mm256_add_epi32(x, half), 23);
        x = _mm256_sub_epi32(x, _mm256_mullo_epi32(k, q));
        x = _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q));
        __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(x, rnd), CS_MLDSA_D);
        avx2_store(t0->c + 8 * i, _mm256_sub_epi32(x, _mm256_slli_epi32(hi, CS_MLDSA_D)));
        _mm_storeu_si128((__m128i *)(i < 31 ? r + 10 * i : tmp), avx2_merge8(hi, 10));
    }
    memcpy(r + 310, tmp, 10);
}
