/* s390x ML-DSA arithmetic in vector registers (z13 vector facility, built
 * with -march=z13 -mzvector): forward and inverse NTT, pointwise Montgomery
 * products and the elementwise operations, four 32-bit coefficients per
 * register. The NTT keeps FIPS 204's order and the portable code's lazy
 * reduction, so every result equals the portable one: the Montgomery
 * product is formed from the high and low halves of the 64-bit products
 * (vector multiply high / low), which gives exactly (a*b - t*q) / 2^32.
 * The two butterfly layers whose pairs sit inside one register (distance
 * 2 and 1) stay scalar. No branch or index depends on coefficients. */
#include <vecintrin.h>

#include "../mldsa_portable.h"
#include "s390x_mldsa.h"

#define Q CS_MLDSA_Q
#define QINV 58728449 /* q^-1 mod 2^32 */

typedef vector signed int vs32;
typedef vector unsigned int vu32;


/* Montgomery product of four lanes: a*b*2^-32 mod q, |result| < q when
 * |a*b| < q*2^31 (the same value as the scalar reduction). */
static inline vs32 vmont(vs32 a, vs32 b)
{
    vs32 hi = vec_mulh(a, b);
    vu32 lo = (vu32)a * (vu32)b;
    vs32 t = (vs32)(lo * vec_splats((unsigned int)QINV));
    return hi - vec_mulh(t, vec_splats((int)Q));
}

/* Scalar Montgomery reduction of a 64-bit product (|a| < q*2^31). */
static inline int32_t mont_reduce(int64_t a)
{
    int32_t t = (int32_t)(uint32_t)((uint64_t)a * QINV);
    return (int32_t)((a - (int64_t)t * Q) >> 32);
}

static inline vs32 load(const int32_t *p)
{
    return vec_xl(0, p);
}

static inline void store(int32_t *p, vs32 v)
{
    vec_xst(v, 0, p);
}

/* Forward NTT (FIPS 204 Algorithm 41), same order and bounds as portable. */
void cs_mldsa_ntt_s390x_vx(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    unsigned k = 0;
    for (unsigned len = 128; len >= 4; len >>= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            vs32 z = vec_splats(cs_mldsa_zetas[++k]);
            for (unsigned j = start; j < start + len; j += 4) {
                vs32 x = load(a + j), y = load(a + j + len);
                vs32 t = vmont(z, y);
                store(a + j + len, x - t);
                store(a + j, x + t);
            }
        }
    }
    for (unsigned len = 2; len > 0; len >>= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int64_t z = cs_mldsa_zetas[++k];
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = mont_reduce(z * a[j + len]);
                a[j + len] = a[j] - t;
                a[j] = a[j] + t;
            }
        }
    }
}

/* Inverse NTT (FIPS 204 Algorithm 42) times 2^32, as portable. */
void cs_mldsa_invntt_s390x_vx(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    unsigned k = 256;
    for (unsigned len = 1; len < 4; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int64_t z = -cs_mldsa_zetas[--k];
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = mont_reduce(z * (t - a[j + len]));
            }
        }
    }
    for (unsigned len = 4; len < 256; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            vs32 z = vec_splats(-cs_mldsa_zetas[--k]);
            for (unsigned j = start; j < start + len; j += 4) {
                vs32 x = load(a + j), y = load(a + j + len);
                store(a + j, x + y);
                store(a + j + len, vmont(z, x - y));
            }
        }
    }
    vs32 f = vec_splats((int32_t)41978); /* 2^64 / 256 mod q */
    for (unsigned j = 0; j < 256; j += 4)
        store(a + j, vmont(f, load(a + j)));
}

/* c = a o b in Montgomery form. */
void cs_mldsa_pointwise_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 4)
        store(c->c + i, vmont(load(a->c + i), load(b->c + i)));
}

/* c = sum of n Montgomery products, each reduced (|c| < n*q). */
void cs_mldsa_pointwise_acc_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                     const cs_mldsa_poly *b, unsigned n)
{
    for (unsigned i = 0; i < 256; i += 4) {
        vs32 acc = vec_splats((int32_t)0);
        for (unsigned j = 0; j < n; j++)
            acc += vmont(load(a[j].c + i), load(b[j].c + i));
        store(c->c + i, acc);
    }
}

/* a mod q into [-6283008, 6283008], as portable. */
void cs_mldsa_reduce32_s390x_vx(cs_mldsa_poly *a)
{
    vs32 r = vec_splats((int32_t)(1 << 22)), q = vec_splats((int32_t)Q);
    for (unsigned i = 0; i < 256; i += 4) {
        vs32 x = load(a->c + i);
        vs32 t = (x + r) >> 23;
        store(a->c + i, x - t * q);
    }
}

/* Adds q to negative coefficients, by mask. */
void cs_mldsa_caddq_s390x_vx(cs_mldsa_poly *a)
{
    vs32 q = vec_splats((int32_t)Q);
    for (unsigned i = 0; i < 256; i += 4) {
        vs32 x = load(a->c + i);
        store(a->c + i, x + ((x >> 31) & q));
    }
}

/* c = a + b. */
void cs_mldsa_add_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 4)
        store(c->c + i, load(a->c + i) + load(b->c + i));
}

/* c = a - b. */
void cs_mldsa_sub_s390x_vx(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 4)
        store(c->c + i, load(a->c + i) - load(b->c + i));
}
