/* Scalars modulo L (scalar25519.h): Barrett reduction (HAC 14.42), valid
 * for inputs below 2^512, the two final corrections masked subtractions.
 * One code over the word type: 64-bit words (b = 2^64, k = 4) where the
 * compiler has unsigned __int128, else 32-bit words (b = 2^32, k = 8:
 * SPARC); sc_dw holds a word product plus two words. */
#include "scalar25519.h"

#include <string.h>

#include "../ct.h"

#ifdef __SIZEOF_INT128__
typedef uint64_t sc_w;
typedef unsigned __int128 sc_dw;
#define SC_W64(x) (x)
#else
typedef uint32_t sc_w;
typedef uint64_t sc_dw;
#define SC_W64(x) (sc_w)(x), (sc_w)((uint64_t)(x) >> 32)
#endif
#define SC_BYTES ((unsigned)sizeof(sc_w))
#define SC_BITS (8 * SC_BYTES)
#define SC_K (32 / SC_BYTES) /* words in a scalar: Barrett's k */
#define SC_K1 (SC_K + 1)

/* L and mu = floor(2^512 / L), little-endian words from 64-bit halves (the
 * first SC_K1 are used). */
static const sc_w L_W[] = {SC_W64(0x5812631a5cf5d3ed), SC_W64(0x14def9dea2f79cd6), SC_W64(0),
                           SC_W64(0x1000000000000000), SC_W64(0)};
static const sc_w MU_W[] = {SC_W64(0xed9ce5a30a2c131b), SC_W64(0x2106215d086329a7),
                            SC_W64(0xffffffffffffffeb), SC_W64(0xffffffffffffffff),
                            SC_W64(0x000000000000000f)};

static sc_w load_w(const uint8_t *p)
{
    sc_w x = 0;
    for (int i = SC_BYTES - 1; i >= 0; i--)
        x = (x << 8) | p[i];
    return x;
}

/* acc += a * b (na and nb words) for an acc of na + nb words whose words
 * from nb up are zero: row i adds a_i * b into words i..i+nb, and no
 * earlier row reached word i + nb. */
static inline __attribute__((always_inline)) void mul_acc(sc_w *acc, const sc_w *a, unsigned na,
                                                          const sc_w *b, unsigned nb)
{
    for (unsigned i = 0; i < na; i++) {
        sc_w carry = 0;
        for (unsigned j = 0; j < nb; j++) {
            sc_dw t = (sc_dw)a[i] * b[j] + acc[i + j] + carry;
            acc[i + j] = (sc_w)t;
            carry = (sc_w)(t >> SC_BITS);
        }
        acc[i + nb] = carry;
    }
}

/* r (k + 1 words) -= L when r >= L, without a branch. */
static void sub_l_masked(sc_w r[SC_K1])
{
    sc_w t[SC_K1], borrow = 0;
    for (unsigned i = 0; i < SC_K1; i++) {
        sc_dw d = (sc_dw)r[i] - L_W[i] - borrow;
        t[i] = (sc_w)d;
        borrow = (sc_w)(d >> SC_BITS) & 1;
    }
    sc_w keep = (sc_w)cs_ct_opaque(0 - borrow); /* borrow: r < L, keep r */
    for (unsigned i = 0; i < SC_K1; i++)
        r[i] = (r[i] & keep) | (t[i] & ~keep);
}

/* out = x mod L for x < 2^512 given as 2k words. */
static void barrett(uint8_t out[32], const sc_w x[2 * SC_K])
{
    sc_w q2[2 * SC_K1] = {0}, q3[SC_K1], p[SC_K1] = {0}, r[SC_K1];
    /* q2 = q1 * mu, q1 = x >> (k - 1) words; q3 = q2 >> (k + 1) words
     * (the lower words of q2 only carry into q3) */
    mul_acc(q2, x + SC_K - 1, SC_K1, MU_W, SC_K1);
    memcpy(q3, q2 + SC_K1, sizeof(q3));
    /* r = (x mod b^(k+1)) - (q3 * L mod b^(k+1)), modulo b^(k+1) */
    for (unsigned i = 0; i < SC_K1; i++) {
        sc_w carry = 0;
        for (unsigned j = 0; i + j < SC_K1; j++) {
            sc_dw t = (sc_dw)q3[i] * L_W[j] + p[i + j] + carry;
            p[i + j] = (sc_w)t;
            carry = (sc_w)(t >> SC_BITS);
        }
    }
    sc_w borrow = 0;
    for (unsigned i = 0; i < SC_K1; i++) {
        sc_dw d = (sc_dw)x[i] - p[i] - borrow;
        r[i] = (sc_w)d;
        borrow = (sc_w)(d >> SC_BITS) & 1;
    }
    /* HAC 14.44: r < 3L now */
    sub_l_masked(r);
    sub_l_masked(r);
    for (unsigned i = 0; i < SC_K; i++)
        for (unsigned k = 0; k < SC_BYTES; k++)
            out[SC_BYTES * i + k] = (uint8_t)(r[i] >> (8 * k));
    cs_wipe(q2, sizeof(q2));
    cs_wipe(q3, sizeof(q3));
    cs_wipe(p, sizeof(p));
    cs_wipe(r, sizeof(r));
}

void cs_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
    sc_w x[2 * SC_K];
    for (unsigned i = 0; i < 2 * SC_K; i++)
        x[i] = load_w(in + SC_BYTES * i);
    barrett(out, x);
    cs_wipe(x, sizeof(x));
}

void cs_sc25519_muladd(uint8_t s[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32])
{
    sc_w aw[SC_K], bw[SC_K], x[2 * SC_K] = {0};
    for (unsigned i = 0; i < SC_K; i++) {
        aw[i] = load_w(a + SC_BYTES * i);
        bw[i] = load_w(b + SC_BYTES * i);
        x[i] = load_w(c + SC_BYTES * i);
    }
    /* a * b < 2^509 and c < 2^253: the sum stays below 2^512 */
    mul_acc(x, aw, SC_K, bw, SC_K);
    barrett(s, x);
    cs_wipe(aw, sizeof(aw));
    cs_wipe(bw, sizeof(bw));
    cs_wipe(x, sizeof(x));
}

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
