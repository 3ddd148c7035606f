/* Inversion modulo p = 2^255 - 19 on canonical 32-byte encodings, by the
 * constant-time divsteps of Bernstein and Yang ("Fast constant-time gcd
 * computation and modular inversion", 2019), in the half-delta form with
 * batches of 59 steps on signed 62-bit limbs that libsecp256k1's modinv64
 * documents. About a third of the cost of the Fermat chain (254 squarings),
 * whatever the field representation, so every table uses it for the
 * ladder's final division. Needs unsigned __int128 (every 64-bit target).
 *
 * Constant time: 590 steps always (enough for any 256-bit input), every
 * condition a mask, no branch or index on the value. */
#ifndef CRYPTOSHIM_C25519_MODINV_H
#define CRYPTOSHIM_C25519_MODINV_H

#include <stdint.h>
#include <string.h>

#define C25519_M62 (UINT64_MAX >> 2)

/* A number as five signed limbs: v[0..3] in [0, 2^62) when normalised,
 * v[4] carrying the sign; value = sum v[i] 2^(62 i). */
typedef struct {
    int64_t v[5];
} c25519_s62;

/* A batch's transition matrix [u v; q r], scaled by 2^62. */
typedef struct {
    int64_t u, v, q, r;
} c25519_t2x2;

static const c25519_s62 c25519_p62 = {
    {0x3fffffffffffffed, 0x3fffffffffffffff, 0x3fffffffffffffff, 0x3fffffffffffffff, 0x7f}};
#define C25519_P_INV62 ((uint64_t)0x39435e50d79435e5) /* p^-1 mod 2^62 */

/* 59 divsteps on the low words of f (odd) and g from zeta = -(delta +
 * 1/2); the matrix of the batch into t, the new zeta returned. */
static inline int64_t c25519_divsteps_59(int64_t zeta, uint64_t f0, uint64_t g0, c25519_t2x2 *t)
{
    uint64_t u = 8, v = 0, q = 0, r = 8, f = f0, g = g0;
    /* unrolled whole: the steps overlap with no loop test between them
     * (by 8, 12% fewer cycles than rolled on the AMD Zen 3; all 59, 8%
     * fewer again) */
#pragma GCC unroll 59
    for (int i = 3; i < 62; i++) {
        uint64_t neg = (uint64_t)(zeta >> 63); /* delta > 0 */
        uint64_t odd = -(g & 1);
        /* g += (delta > 0 ? -f : f) when g is odd, with q, r alike */
        g += ((f ^ neg) - neg) & odd;
        q += ((u ^ neg) - neg) & odd;
        r += ((v ^ neg) - neg) & odd;
        neg &= odd; /* the swap case: delta > 0 and g odd */
        zeta = (zeta ^ (int64_t)neg) - 1;
        /* then f += g (g now holds g - f): f becomes the old g */
        f += g & neg;
        u += q & neg;
        v += r & neg;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return zeta;
}

/* [a, b] = (t [a, b] + p [ma, mb]) / 2^62, given that sum's limb 0 in ca
 * and cb (multiples of 2^62): the pass over limbs 1..4 that both updates
 * below end with (ma = mb = 0 for the exact one). */
static inline __attribute__((always_inline)) void c25519_update_shift(c25519_s62 *a, c25519_s62 *b,
                                                                      const c25519_t2x2 *t,
                                                                      __int128 ca, __int128 cb,
                                                                      int64_t ma, int64_t mb)
{
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    ca >>= 62;
    cb >>= 62;
    for (int i = 1; i < 5; i++) {
        ca += (__int128)u * a->v[i] + (__int128)v * b->v[i] + (__int128)c25519_p62.v[i] * ma;
        cb += (__int128)q * a->v[i] + (__int128)r * b->v[i] + (__int128)c25519_p62.v[i] * mb;
        a->v[i - 1] = (int64_t)((uint64_t)ca & C25519_M62);
        b->v[i - 1] = (int64_t)((uint64_t)cb & C25519_M62);
        ca >>= 62;
        cb >>= 62;
    }
    a->v[4] = (int64_t)ca;
    b->v[4] = (int64_t)cb;
}

/* [d, e] = t [d, e] / 2^62 mod p, keeping both in (-2p, p). */
static inline void c25519_update_de(c25519_s62 *d, c25519_s62 *e, const c25519_t2x2 *t)
{
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    int64_t sd = d->v[4] >> 63, se = e->v[4] >> 63;
    /* add p times md, me: first p for each negative input (keeps the
     * range), then what makes the low 62 bits zero */
    int64_t md = (u & sd) + (v & se), me = (q & sd) + (r & se);
    __int128 cd = (__int128)u * d->v[0] + (__int128)v * e->v[0];
    __int128 ce = (__int128)q * d->v[0] + (__int128)r * e->v[0];
    md -= (int64_t)((C25519_P_INV62 * (uint64_t)cd + (uint64_t)md) & C25519_M62);
    me -= (int64_t)((C25519_P_INV62 * (uint64_t)ce + (uint64_t)me) & C25519_M62);
    cd += (__int128)c25519_p62.v[0] * md;
    ce += (__int128)c25519_p62.v[0] * me;
    c25519_update_shift(d, e, t, cd, ce, md, me);
}

/* [f, g] = t [f, g] / 2^62 (exact). */
static inline void c25519_update_fg(c25519_s62 *f, c25519_s62 *g, const c25519_t2x2 *t)
{
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    __int128 cf = (__int128)u * f->v[0] + (__int128)v * g->v[0];
    __int128 cg = (__int128)q * f->v[0] + (__int128)r * g->v[0];
    c25519_update_shift(f, g, t, cf, cg, 0, 0);
}

/* Carries limbs 0..3 into [0, 2^62), the excess into v[4]. */
static inline void c25519_s62_carry(c25519_s62 *x)
{
    for (int i = 0; i < 4; i++) {
        x->v[i + 1] += x->v[i] >> 62;
        x->v[i] &= (int64_t)C25519_M62;
    }
}

/* x in (-2p, p) to [0, p), negated first when sign < 0. */
static inline void c25519_s62_normalize(c25519_s62 *x, int64_t sign)
{
    int64_t add = x->v[4] >> 63, neg = sign >> 63;
    for (int i = 0; i < 5; i++)
        x->v[i] += c25519_p62.v[i] & add;
    for (int i = 0; i < 5; i++)
        x->v[i] = (x->v[i] ^ neg) - neg;
    c25519_s62_carry(x);
    add = x->v[4] >> 63;
    for (int i = 0; i < 5; i++)
        x->v[i] += c25519_p62.v[i] & add;
    c25519_s62_carry(x);
}

/* out = in^-1 mod p (0 for 0): in and out canonical (below p), little-
 * endian; they may alias. */
static void c25519_inv_bytes(uint8_t out[32], const uint8_t in[32])
{
    uint64_t w[4];
    memcpy(w, in, 32);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int i = 0; i < 4; i++)
        w[i] = __builtin_bswap64(w[i]);
#endif
    c25519_s62 d = {{0, 0, 0, 0, 0}}, e = {{1, 0, 0, 0, 0}}, f = c25519_p62;
    c25519_s62 g = {{(int64_t)(w[0] & C25519_M62), (int64_t)(((w[0] >> 62) | (w[1] << 2)) & C25519_M62),
                     (int64_t)(((w[1] >> 60) | (w[2] << 4)) & C25519_M62),
                     (int64_t)(((w[2] >> 58) | (w[3] << 6)) & C25519_M62), (int64_t)(w[3] >> 56)}};
    int64_t zeta = -1;
    for (int i = 0; i < 10; i++) {
        c25519_t2x2 t;
        zeta = c25519_divsteps_59(zeta, (uint64_t)f.v[0], (uint64_t)g.v[0], &t);
        c25519_update_de(&d, &e, &t);
        c25519_update_fg(&f, &g, &t);
    }
    /* g is 0 now and f is +-1 (the gcd): d is +-1/in */
    c25519_s62_normalize(&d, f.v[4]);
    uint64_t v[5];
    for (int i = 0; i < 5; i++)
        v[i] = (uint64_t)d.v[i];
    w[0] = v[0] | (v[1] << 62);
    w[1] = (v[1] >> 2) | (v[2] << 60);
    w[2] = (v[2] >> 4) | (v[3] << 58);
    w[3] = (v[3] >> 6) | (v[4] << 56);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int i = 0; i < 4; i++)
        w[i] = __builtin_bswap64(w[i]);
#endif
    memcpy(out, w, 32);
}

#endif
