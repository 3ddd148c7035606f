/* Portable NTT over Z_q[X]/(X^256+1) with Montgomery multiplication and lazy
 * reduction: the only reduction per butterfly is the Montgomery reduction
 * of the twiddle product, so coefficients grow by at most q per layer. */
#include "mldsa_portable.h"

#define Q CS_MLDSA_Q
#define QINV 58728449 /* q^-1 mod 2^32 */

/* zetas[k] = 1753^brv8(k) * 2^32 mod q, centred (zetas[0] unused). */
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
    -554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782
};

/* Montgomery reduction: for |a| < q * 2^31 returns r = a * 2^-32 mod q with
 * |r| < q. Multiplication by 2^32 wraps on purpose (two's complement). */
static inline int32_t mont_reduce(int64_t a)
{
    int32_t t = (int32_t)(uint32_t)((uint64_t)a * QINV);
    return (int32_t)((a - (int64_t)t * Q) >> 32);
}

/* Forward NTT (FIPS 204 Algorithm 41), Cooley-Tukey, output in FIPS order. */
void cs_mldsa_ntt_portable(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    unsigned k = 0;
    for (unsigned len = 128; len > 0; len >>= 1) {
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

/* Inverse NTT (FIPS 204 Algorithm 42), Gentleman-Sande, then scaling by
 * 2^32/256 folded into one Montgomery multiplication by F = 2^64/256 mod q.
 * Sums double per layer: |in| < q keeps every value below 256q < 2^31. */
void cs_mldsa_invntt_portable(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    unsigned k = 256;
    const int64_t F = 41978;
    for (unsigned len = 1; len < 256; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int64_t z = -zetas[--k];
            for (unsigned j = start; j < start + len; j++) {
                int32_t t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = mont_reduce(z * (t - a[j + len]));
            }
        }
    }
    for (unsigned j = 0; j < 256; j++)
        a[j] = mont_reduce(F * a[j]);
}

/* c = a o b in Montgomery form (see mldsa_backend.h). */
void cs_mldsa_pointwise_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                 const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i++)
        c->c[i] = mont_reduce((int64_t)a->c[i] * b->c[i]);
}

/* c = sum of n pointwise products, accumulated in 64 bits and reduced once:
 * the sum stays below 8 * q * 2^31 < 2^57, well inside mont_reduce's reach
 * for int64 (its output is then below 4.3q <= n*q for n >= 5, and below
 * n*q/2 + q/2 <= n*q in general). */
void cs_mldsa_pointwise_acc_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                     const cs_mldsa_poly *b, unsigned n)
{
    for (unsigned i = 0; i < 256; i++) {
        int64_t acc = 0;
        for (unsigned j = 0; j < n; j++)
            acc += (int64_t)a[j].c[i] * b[j].c[i];
        c->c[i] = mont_reduce(acc);
    }
}

/* a mod q into [-6283008, 6283008]. */
void cs_mldsa_reduce32_portable(cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i++) {
        int32_t t = (a->c[i] + (1 << 22)) >> 23;
        a->c[i] -= t * Q;
    }
}

/* Adds q to negative coefficients, by mask. */
void cs_mldsa_caddq_portable(cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i++)
        a->c[i] += (a->c[i] >> 31) & Q;
}

/* c = a + b. */
void cs_mldsa_add_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i++)
        c->c[i] = a->c[i] + b->c[i];
}

/* c = a - b. */
void cs_mldsa_sub_portable(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i++)
        c->c[i] = a->c[i] - b->c[i];
}

/* a = a * 2^13. */
void cs_mldsa_shiftl_portable(cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i++)
        a->c[i] = (int32_t)((uint32_t)a->c[i] << CS_MLDSA_D);
}

/* r = c * s exactly: for each nonzero c_j (public), adds +-s shifted by j
 * into a 512-entry accumulator with a fixed 256-iteration loop (which
 * compilers vectorize), then folds X^256 = -1. */
void cs_mldsa_mul_challenge_portable(cs_mldsa_poly *r, const cs_mldsa_poly *c,
                                     const cs_mldsa_poly *s)
{
    int32_t acc[512] __attribute__((aligned(32)));
    for (unsigned i = 0; i < 512; i++)
        acc[i] = 0;
    for (unsigned j = 0; j < 256; j++) {
        int32_t *dst = acc + j;
        if (c->c[j] > 0) {
            for (unsigned i = 0; i < 256; i++)
                dst[i] += s->c[i];
        } else if (c->c[j] < 0) {
            for (unsigned i = 0; i < 256; i++)
                dst[i] -= s->c[i];
        }
    }
    for (unsigned i = 0; i < 256; i++)
        r->c[i] = acc[i] - acc[i + 256];
}
