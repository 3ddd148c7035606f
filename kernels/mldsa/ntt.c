/* Portable NTT over Z_q[X]/(X^256+1) with Montgomery multiplication and lazy
 * reduction: the only reduction per butterfly is the Montgomery reduction
 * of the twiddle product, so coefficients grow by at most q per layer. */
#include "mldsa_portable.h"

#define Q CS_MLDSA_Q
#define QINV 58728449 /* q^-1 mod 2^32 */

/* zetas[k] = 1753^brv8(k) * 2^32 mod q, centred (zetas[0] unused). Shared
 * with backends that walk the NTT in the portable order (s390x). */
const int32_t cs_mldsa_zetas[256] = {
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

/* zetas_qinv[k] = zetas[k] * q^-1 mod 2^32 (as int32): lets the Montgomery
 * product start from a 32-bit multiply independent of a * zeta. */
static const int32_t zetas_qinv[256] = {
    -513, 1830765815, -1929875198, -1927777021, 1640767044, 1477910808,
    1612161320, 1640734244, 308362795, -1815525077, -1374673747, -1091570561,
    -1929495947, 515185417, -285697463, 625853735, 1727305304, 2082316400,
    -1364982364, 858240904, 1806278032, 222489248, -346752664, 684667771,
    1654287830, -878576921, -1257667337, -748618600, 329347125, 1837364258,
    -1443016191, -1170414139, -1846138265, -1631226336, -1404529459, 1838055109,
    1594295555, -1076973524, -1898723372, -594436433, -202001019, -475984260,
    -561427818, 1797021249, -1061813248, 2059733581, -1661512036, -1104976547,
    -1750224323, -901666090, 418987550, 1831915353, -1925356481, 992097815,
    879957084, 2024403852, 1484874664, -1636082790, -285388938, -1983539117,
    -1495136972, -950076368, -1714807468, -952438995, -1574918427, -654783359,
    1350681039, -1974159335, -2143979939, 1651689966, 1599739335, 140455867,
    -1285853323, -1039411342, -993005454, 1955560694, -1440787840, 1529189038,
    568627424, -2131021878, -783134478, -247357819, -588790216, 1518161567,
    289871779, -86965173, -1262003603, 1708872713, 2135294594, 1787797779,
    -1018755525, 1638590967, -889861155, -120646188, 1665705315, -1669960606,
    1321868265, -916321552, 1225434135, 1155548552, -1784632064, 2143745726,
    666258756, 1210558298, 675310538, -1261461890, -1555941048, -318346816,
    -1999506068, 628664287, -1499481951, -1729304568, -695180180, 1422575624,
    -1375177022, 1424130038, 1777179795, -1185330464, 334803717, 235321234,
    -178766299, 168022240, -518252220, 1206536194, 1957047970, 985155484,
    1146323031, -894060583, -898413, 991903578, 1363007700, 746144248,
    -1363460238, 912367099, 30313375, -1420958686, -605900043, -44694137,
    -326425360, 2032221021, 2027833504, 1176904444, 1683520342, 1904936414,
    14253662, -421552614, -517299994, 1257750362, 1014493059, -818371958,
    2027935492, 1926727420, 863641633, 1747917558, -1372618620, 1931587462,
    1819892093, -325927722, 128353682, 1258381762, 2124962073, 908452108,
    -1123881663, 885133339, -1223601433, 1851023419, 137583815, 1629985060,
    -1920467227, -1176751719, -635454918, 1967222129, -1637785316, -1354528380,
    -642772911, 6363718, -1536588520, -72690498, 45766801, -1287922800,
    694382729, -314284737, 671509323, 1136965286, 235104446, 985022747,
    -2070602178, 1779436847, -1045062172, 963438279, 419615363, 1116720494,
    831969619, -1078959975, 1216882040, 1042326957, -300448763, 604552167,
    -270590488, 1405999311, 756955444, -1021949428, -1276805128, 713994583,
    -260312805, 608791570, 371462360, 940195359, 1554794072, 173440395,
    -1357098057, -1542497137, 1339088280, -2126092136, -384158533, 2061661095,
    -2040058690, -1316619236, 827959816, -883155599, -853476187, -1039370342,
    -596344473, 1726753853, -2047270596, 6087993, 702390549, -1547952704,
    -1723816713, -110126092, -279505433, 394851342, -1591599803, 565464272,
    -260424530, 283780712, -440824168, -1758099917, -71875110, 776003547,
    1119856484, -1600929361, -1208667171, 1123958025, 1544891539, 879867909,
    -1499603926, 201262505, 155290192, -1809756372, 2036925262, 1934038751,
    -973777462, 400711272, -540420426, 374860238
};

/* a * z * 2^-32 mod q for |a| < 2^31, z = zetas[k], zq = zetas_qinv[k];
 * |result| < q. */
static inline int32_t mont_mul(int32_t a, int32_t z, int32_t zq)
{
    int32_t t = (int32_t)((uint32_t)a * (uint32_t)zq);
    return (int32_t)(((int64_t)a * z - (int64_t)t * Q) >> 32);
}

/* Montgomery reduction: for |a| < q * 2^31 returns r = a * 2^-32 mod q with
 * |r| < q. Multiplication by 2^32 wraps on purpose (two's complement). */
static inline int32_t mont_reduce(int64_t a)
{
    int32_t t = (int32_t)(uint32_t)((uint64_t)a * QINV);
    return (int32_t)((a - (int64_t)t * Q) >> 32);
}

/* Forward NTT (FIPS 204 Algorithm 41), Cooley-Tukey, output in FIPS order.
 * Layers are done in pairs (len L then L/2) so each coefficient is loaded
 * and stored once per two layers; the arithmetic is exactly that of the
 * layer-by-layer algorithm. */
void cs_mldsa_ntt_portable(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    for (unsigned len = 128; len >= 2; len >>= 2) {
        unsigned h = len >> 1;
        for (unsigned start = 0, b = 0; start < 256; start += 2 * len, b++) {
            unsigned k1 = 128 / len + b, k2 = 256 / len + 2 * b;
            int32_t z1 = cs_mldsa_zetas[k1], q1 = zetas_qinv[k1];
            int32_t z2 = cs_mldsa_zetas[k2], q2 = zetas_qinv[k2];
            int32_t z3 = cs_mldsa_zetas[k2 + 1], q3 = zetas_qinv[k2 + 1];
            for (unsigned j = start; j < start + h; j++) {
                int32_t a0 = a[j], a1 = a[j + h], a2 = a[j + len], a3 = a[j + len + h];
                int32_t t = mont_mul(a2, z1, q1);
                a2 = a0 - t;
                a0 = a0 + t;
                t = mont_mul(a3, z1, q1);
                a3 = a1 - t;
                a1 = a1 + t;
                t = mont_mul(a1, z2, q2);
                a1 = a0 - t;
                a0 = a0 + t;
                t = mont_mul(a3, z3, q3);
                a3 = a2 - t;
                a2 = a2 + t;
                a[j] = a0, a[j + h] = a1, a[j + len] = a2, a[j + len + h] = a3;
            }
        }
    }
}

/* Inverse NTT (FIPS 204 Algorithm 42), Gentleman-Sande, then scaling by
 * 2^32/256 folded into one Montgomery multiplication by F = 2^64/256 mod q.
 * Sums double per layer: |in| < q keeps every value below 256q < 2^31.
 * Layers in pairs (len L then 2L), same arithmetic as layer by layer. */
void cs_mldsa_invntt_portable(cs_mldsa_poly *p)
{
/* One Gentleman-Sande butterfly: (x, y) = (x + y, mont((x - y) z)). */
#define GS(x, y, z, q)                                                                  \
    do {                                                                                \
        int32_t t_ = x;                                                                 \
        x = t_ + y;                                                                     \
        y = mont_mul(t_ - y, z, q);                                                     \
    } while (0)
    int32_t *a = p->c;
    const int64_t F = 41978;
    for (unsigned len = 1; len <= 16; len <<= 2) {
        for (unsigned start = 0; start < 256; start += 4 * len) {
            unsigned b1 = start / (2 * len), b2 = start / (4 * len);
            unsigned k1 = 256 / len - 1 - b1, k2 = k1 - 1, k3 = 128 / len - 1 - b2;
            int32_t z1 = -cs_mldsa_zetas[k1], q1 = (int32_t)(0u - (uint32_t)zetas_qinv[k1]);
            int32_t z2 = -cs_mldsa_zetas[k2], q2 = (int32_t)(0u - (uint32_t)zetas_qinv[k2]);
            int32_t z3 = -cs_mldsa_zetas[k3], q3 = (int32_t)(0u - (uint32_t)zetas_qinv[k3]);
            for (unsigned j = start; j < start + len; j++) {
                int32_t a0 = a[j], a1 = a[j + len], a2 = a[j + 2 * len], a3 = a[j + 3 * len];
                GS(a0, a1, z1, q1);
        GS(a2, a3, z2, q2);
                GS(a0, a2, z3, q3);
                GS(a1, a3, z3, q3);
                a[j] = a0, a[j + len] = a1, a[j + 2 * len] = a2, a[j + 3 * len] = a3;
            }
        }
    }
    /* Layers 64 and 128 with the final scaling folded in: the sums are
     * multiplied by F, the differences by zF = mont(-cs_mldsa_zetas[1] * F) instead
     * of -cs_mldsa_zetas[1] and then F. */
    const int32_t z1 = -cs_mldsa_zetas[3], q1 = (int32_t)(0u - (uint32_t)zetas_qinv[3]);
    const int32_t z2 = -cs_mldsa_zetas[2], q2 = (int32_t)(0u - (uint32_t)zetas_qinv[2]);
    const int32_t zf = 3975713, qf = 151046689;
    for (unsigned j = 0; j < 64; j++) {
        int32_t a0 = a[j], a1 = a[j + 64], a2 = a[j + 128], a3 = a[j + 192];
        GS(a0, a1, z1, q1);
        GS(a2, a3, z2, q2);
        int32_t t = a0;
        a0 = mont_reduce(F * (t + a2));
        a2 = mont_mul(t - a2, zf, qf);
        t = a1;
        a1 = mont_reduce(F * (t + a3));
        a3 = mont_mul(t - a3, zf, qf);
        a[j] = a0, a[j + 64] = a1, a[j + 128] = a2, a[j + 192] = a3;
    }
#undef GS
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
