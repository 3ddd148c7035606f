/* Scalars modulo L (scalar25519.h): Barrett reduction (HAC 14.42), valid
 * for inputs below 2^512, the two final corrections masked subtractions:
 * with 64-bit words (b = 2^64, k = 4) where the compiler has unsigned
 * __int128, else with 32-bit words (b = 2^32, k = 8: SPARC). */
#include "scalar25519.h"

#include <string.h>

#include "../ct.h"

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 sc_u128;

/* L and mu = floor(2^512 / L), little-endian 64-bit words. */
static const uint64_t L64[5] = {0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000, 0};
static const uint64_t MU64[5] = {0xed9ce5a30a2c131b, 0x2106215d086329a7, 0xffffffffffffffeb,
                                 0xffffffffffffffff, 0x000000000000000f};

static uint64_t load64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = (x << 8) | p[i];
    return x;
}

/* r (5 words) -= L when r >= L, without a branch. */
static void sub_l_masked(uint64_t r[5])
{
    uint64_t t[5], borrow = 0;
    for (unsigned i = 0; i < 5; i++) {
        sc_u128 d = (sc_u128)r[i] - L64[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t keep = cs_ct_opaque(0 - borrow); /* borrow: r < L, keep r */
    for (unsigned i = 0; i < 5; i++)
        r[i] = (r[i] & keep) | (t[i] & ~keep);
}

/* out = x mod L for x < 2^512 given as 8 words. */
static void barrett(uint8_t out[32], const uint64_t x[8])
{
    uint64_t q2[10] = {0}, q3[5], p[5] = {0}, r[5];
    /* q2 = q1 * mu, q1 = x >> 192 (words 3..7); q3 = q2 >> 320 */
    for (unsigned i = 0; i < 5; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; j < 5; j++) {
            sc_u128 t = (sc_u128)x[3 + i] * MU64[j] + q2[i + j] + carry;
            q2[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        q2[i + 5] = carry;
    }
    memcpy(q3, q2 + 5, sizeof(q3));
    /* r = (x mod b^5) - (q3 * L mod b^5), modulo b^5 */
    for (unsigned i = 0; i < 5; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; i + j < 5; j++) {
            sc_u128 t = (sc_u128)q3[i] * L64[j] + p[i + j] + carry;
            p[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    uint64_t borrow = 0;
    for (unsigned i = 0; i < 5; i++) {
        sc_u128 d = (sc_u128)x[i] - p[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* HAC 14.44: r < 3L now */
    sub_l_masked(r);
    sub_l_masked(r);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(r[i] >> (8 * k));
    cs_wipe(q2, sizeof(q2));
    cs_wipe(q3, sizeof(q3));
    cs_wipe(p, sizeof(p));
    cs_wipe(r, sizeof(r));
}

void cs_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
    uint64_t x[8];
    for (unsigned i = 0; i < 8; i++)
        x[i] = load64(in + 8 * i);
    barrett(out, x);
    cs_wipe(x, sizeof(x));
}

void cs_sc25519_muladd(uint8_t s[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32])
{
    uint64_t aw[4], bw[4], x[8] = {0};
    for (unsigned i = 0; i < 4; i++) {
        aw[i] = load64(a + 8 * i);
        bw[i] = load64(b + 8 * i);
        x[i] = load64(c + 8 * i);
    }
    /* a * b < 2^509 and c < 2^253: the sum stays below 2^512; row i adds
     * a_i * b into words i..i+4, and no earlier row reached word i + 4 */
    for (unsigned i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; j < 4; j++) {
            sc_u128 t = (sc_u128)aw[i] * bw[j] + x[i + j] + carry;
            x[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        x[i + 4] = carry;
    }
    barrett(s, x);
    cs_wipe(aw, sizeof(aw));
    cs_wipe(bw, sizeof(bw));
    cs_wipe(x, sizeof(x));
}

#else /* 32-bit words */

/* L and mu = floor(2^512 / L), little-endian 32-bit words. */
static const uint32_t L32[9] = {0x5cf5d3ed, 0x5812631a, 0xa2f79cd6, 0x14def9de, 0,
                                0,          0,          0x10000000, 0};
static const uint32_t MU32[9] = {0x0a2c131b, 0xed9ce5a3, 0x086329a7, 0x2106215d, 0xffffffeb,
                                 0xffffffff, 0xffffffff, 0xffffffff, 0x0000000f};

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* r (9 words) -= L when r >= L, without a branch. */
static void sub_l_masked(uint32_t r[9])
{
    uint32_t t[9];
    uint64_t borrow = 0;
    for (unsigned i = 0; i < 9; i++) {
        uint64_t d = (uint64_t)r[i] - L32[i] - borrow;
        t[i] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
    /* borrow 1: r < L, keep r */
    uint32_t keep = (uint32_t)cs_ct_opaque(0 - borrow);
    for (unsigned i = 0; i < 9; i++)
        r[i] = (r[i] & keep) | (t[i] & ~keep);
}

/* out = x mod L for x < 2^512 given as 16 words. */
static void barrett(uint8_t out[32], const uint32_t x[16])
{
    uint32_t q3[9], r[9];
    uint64_t q2[18] = {0};
    /* q2 = q1 * mu with q1 = x >> 224 (words 7..15); only its words 9..17
     * (q3) are used, but the lower ones carry into them. */
    for (unsigned i = 0; i < 9; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; j < 9; j++) {
            uint64_t t = (uint64_t)x[7 + i] * MU32[j] + q2[i + j] + carry;
            q2[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        q2[i + 9] = carry;
    }
    for (unsigned i = 0; i < 9; i++)
        q3[i] = (uint32_t)q2[9 + i];
    /* r = (x mod b^9) - (q3 * L mod b^9), modulo b^9 */
    uint32_t p[9] = {0};
    for (unsigned i = 0; i < 9; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; i + j < 9; j++) {
            uint64_t t = (uint64_t)q3[i] * L32[j] + p[i + j] + carry;
            p[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    uint64_t borrow = 0;
    for (unsigned i = 0; i < 9; i++) {
        uint64_t d = (uint64_t)x[i] - p[i] - borrow;
        r[i] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
    /* HAC 14.44: r < 3L now */
    sub_l_masked(r);
    sub_l_masked(r);
    for (unsigned i = 0; i < 8; i++) {
        out[4 * i + 0] = (uint8_t)r[i];
        out[4 * i + 1] = (uint8_t)(r[i] >> 8);
        out[4 * i + 2] = (uint8_t)(r[i] >> 16);
        out[4 * i + 3] = (uint8_t)(r[i] >> 24);
    }
    cs_wipe(q2, sizeof(q2));
    cs_wipe(q3, sizeof(q3));
    cs_wipe(p, sizeof(p));
    cs_wipe(r, sizeof(r));
}

void cs_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
    uint32_t x[16];
    for (unsigned i = 0; i < 16; i++)
        x[i] = load32(in + 4 * i);
    barrett(out, x);
    cs_wipe(x, sizeof(x));
}

void cs_sc25519_muladd(uint8_t s[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32])
{
    uint32_t aw[8], bw[8], x[16] = {0};
    for (unsigned i = 0; i < 8; i++) {
        aw[i] = load32(a + 4 * i);
        bw[i] = load32(b + 4 * i);
        x[i] = load32(c + 4 * i);
    }
    /* a * b < 2^509 and c < 2^253: the sum stays below 2^512; row i adds
     * a_i * b into words i..i+8 */
    for (unsigned i = 0; i < 8; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; j < 8; j++) {
            uint64_t t = (uint64_t)aw[i] * bw[j] + x[i + j] + carry;
            x[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        x[i + 8] = (uint32_t)carry; /* no earlier row reached word i + 8 */
    }
    barrett(s, x);
    cs_wipe(aw, sizeof(aw));
    cs_wipe(bw, sizeof(bw));
    cs_wipe(x, sizeof(x));
}

#endif

int cs_sc25519_is_canonical(const uint8_t s[32])
{
    /* L little-endian, compared from the top byte down */
    static const uint8_t l_bytes[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                        0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                        0,    0,    0,    0,    0,    0,    0,    0,
                                        0,    0,    0,    0,    0,    0,    0,    0x10};
    for (int i = 31; i >= 0; i--) {
        if (s[i] < l_bytes[i])
            return 1;
        if (s[i] > l_bytes[i])
            return 0;
    }
    return 0; /* s == L */
}
