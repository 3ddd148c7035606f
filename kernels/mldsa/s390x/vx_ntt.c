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

#include "s390x_mldsa.h"

#define Q CS_MLDSA_Q
#define QINV 58728449 /* q^-1 mod 2^32 */

typedef vector signed int vs32;
typedef vector unsigned int vu32;

/* zetas[k] = 1753^brv8(k) * 2^32 mod q, centred (entry 0 unused). */
static const int32_t zetas[256] = {
    -4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468,
    1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103,
    2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549,
    -2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005,
    2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439,
    -3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299,
    -1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596,
    811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779,
    -3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221,
    -1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922,
    3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047,
    -671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430,
    -3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618,
    -3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856,
    189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330,
    1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961,
    2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462,
    266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378,
    900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500,
    -655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838,
    342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044,
    2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974,
    -3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970,
    -1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642,
    -1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031,
    -542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993,
    -2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385,
    -3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107,
    -3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078,
    -426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893,
    -2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687,
    -554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782,
};

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
            vs32 z = vec_splats(zetas[++k]);
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
            int64_t z = zetas[++k];
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
            int64_t z = -zetas[--k];
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = mont_reduce(z * (t - a[j + len]));
            }
        }
    }
    for (unsigned len = 4; len < 256; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            vs32 z = vec_splats(-zetas[--k]);
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
