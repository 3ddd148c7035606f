/* Arithmetic mod q = 3329 in 16-bit words (Montgomery with R = 2^16,
 * Barrett) and the portable NTT of FIPS 203 4.3: forward, inverse and the
 * products of degree-one factors (MultiplyNTTs), NTT outputs in the
 * standard bit-reversed order. Branch-free and index-free on the data. */
#include "mlkem_backend.h"

#define QINV (-3327) /* q^-1 mod 2^16, signed */

/* zeta^BitRev7(i) * 2^16 mod q, centred, zeta = 17 (FIPS 203 appendix A, Montgomery form). */
const int16_t cs_mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,   962,
    -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017,
    732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,  -1293, 1491,  -282,
    -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,  -853,  -90,   -271,  830,
    107,   -1421, -247,  -951,  -398,  961,   -1508, -725,  448,   -1065, 677,   -1275, -1103,
    430,   555,   843,   -1251, 871,   1550,  105,   422,   587,   177,   -235,  -291,  -460,
    1574,  1653,  -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,   -872,
    349,   418,   329,   -156,  -75,   817,   1097,  603,   610,   1322,  -1285, -1465, 384,
    -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510,
    -854,  -870,  478,   -108,  -308,  996,   991,   958,   -1460, 1522,  1628,
};

/* a * 2^-16 mod q in (-q, q), for |a| < 2^15 q. */
int16_t cs_mlkem_montgomery_reduce(int32_t a)
{
    int16_t t = (int16_t)((uint32_t)a * (uint32_t)QINV);
    return (int16_t)((a - (int32_t)t * CS_MLKEM_Q) >> 16);
}

/* The centred representative of a mod q, in [-(q-1)/2, (q-1)/2]. */
int16_t cs_mlkem_barrett_reduce(int16_t a)
{
    const int32_t v = ((1 << 26) + CS_MLKEM_Q / 2) / CS_MLKEM_Q;
    int16_t t = (int16_t)((v * a + (1 << 25)) >> 26);
    return (int16_t)(a - t * CS_MLKEM_Q);
}

/* a * b * 2^-16 mod q. */
static int16_t fqmul(int16_t a, int16_t b)
{
    return cs_mlkem_montgomery_reduce((int32_t)a * b);
}

/* Forward NTT (FIPS 203 algorithm 9), then Barrett reduction: |c| < q in, centred out. */
void cs_mlkem_ntt_portable(cs_mlkem_poly *p)
{
    int16_t *r = p->c;
    unsigned k = 1;
    for (unsigned len = 128; len >= 2; len >>= 1) {
        for (unsigned start = 0; start < CS_MLKEM_N; start += 2 * len) {
            int16_t zeta = cs_mlkem_zetas[k++];
            for (unsigned j = start; j < start + len; j++) {
                int16_t t = fqmul(zeta, r[j + len]);
                r[j + len] = (int16_t)(r[j] - t);
                r[j] = (int16_t)(r[j] + t);
            }
        }
    }
    for (unsigned j = 0; j < CS_MLKEM_N; j++)
        r[j] = cs_mlkem_barrett_reduce(r[j]);
}

/* Inverse NTT (FIPS 203 algorithm 10) times 2^16: the final scaling by
 * 128^-1 and the Montgomery factor is one multiplication by 2^32/128 mod q. */
void cs_mlkem_invntt_portable(cs_mlkem_poly *p)
{
    const int16_t f = 1441; /* 2^32 / 128 mod q */
    int16_t *r = p->c;
    unsigned k = 127;
    for (unsigned len = 2; len <= 128; len <<= 1) {
        for (unsigned start = 0; start < CS_MLKEM_N; start += 2 * len) {
            int16_t zeta = cs_mlkem_zetas[k--];
            for (unsigned j = start; j < start + len; j++) {
                int16_t t = r[j];
                r[j] = cs_mlkem_barrett_reduce((int16_t)(t + r[j + len]));
                r[j + len] = fqmul(zeta, (int16_t)(r[j + len] - t));
            }
        }
    }
    for (unsigned j = 0; j < CS_MLKEM_N; j++)
        r[j] = fqmul(r[j], f);
}

/* (a0 + a1 X)(b0 + b1 X) mod (X^2 - zeta), times 2^-16, into r[0], r[1] (each |.| < 2q). */
static void basemul(int16_t r[2], const int16_t a[2], const int16_t b[2], int16_t zeta)
{
    r[0] = (int16_t)(fqmul(fqmul(a[1], b[1]), zeta) + fqmul(a[0], b[0]));
    r[1] = (int16_t)(fqmul(a[0], b[1]) + fqmul(a[1], b[0]));
}

/* r = sum a[i] * b[i] (FIPS 203 algorithms 11 and 12), times 2^-16, centred. */
void cs_mlkem_basemul_acc_portable(cs_mlkem_poly *r, const cs_mlkem_poly *a,
                                   const cs_mlkem_poly *b, unsigned k)
{
    for (unsigned j = 0; j < CS_MLKEM_N; j++)
        r->c[j] = 0;
    for (unsigned i = 0; i < k; i++) {
        for (unsigned j = 0; j < CS_MLKEM_N / 4; j++) {
            int16_t t[2];
            basemul(t, &a[i].c[4 * j], &b[i].c[4 * j], cs_mlkem_zetas[64 + j]);
            r->c[4 * j] = (int16_t)(r->c[4 * j] + t[0]);
            r->c[4 * j + 1] = (int16_t)(r->c[4 * j + 1] + t[1]);
            basemul(t, &a[i].c[4 * j + 2], &b[i].c[4 * j + 2], (int16_t)-cs_mlkem_zetas[64 + j]);
            r->c[4 * j + 2] = (int16_t)(r->c[4 * j + 2] + t[0]);
            r->c[4 * j + 3] = (int16_t)(r->c[4 * j + 3] + t[1]);
        }
    }
    for (unsigned j = 0; j < CS_MLKEM_N; j++)
        r->c[j] = cs_mlkem_barrett_reduce(r->c[j]);
}

/* r = Barrett(a + b). */
void cs_mlkem_add_reduce_portable(cs_mlkem_poly *r, const cs_mlkem_poly *a,
                                  const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        r->c[i] = cs_mlkem_barrett_reduce((int16_t)(a->c[i] + b->c[i]));
}

/* r = Barrett(a - b). */
void cs_mlkem_sub_reduce_portable(cs_mlkem_poly *r, const cs_mlkem_poly *a,
                                  const cs_mlkem_poly *b)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        r->c[i] = cs_mlkem_barrett_reduce((int16_t)(a->c[i] - b->c[i]));
}

/* r = Barrett(r * 2^32 * 2^-16 + e): Montgomery multiplication by 2^32 mod q = 1353. */
void cs_mlkem_tomont_add_portable(cs_mlkem_poly *r, const cs_mlkem_poly *e)
{
    for (unsigned i = 0; i < CS_MLKEM_N; i++)
        r->c[i] = cs_mlkem_barrett_reduce(
            (int16_t)(cs_mlkem_montgomery_reduce((int32_t)r->c[i] * 1353) + e->c[i]));
}
