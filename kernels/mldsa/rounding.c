/* Portable Power2Round, Decompose, MakeHint, UseHint and the infinity-norm
 * check, all branch-free (they run on secret data while signing). */
#include "mldsa_portable.h"

#define Q CS_MLDSA_Q
#define GAMMA2_88 ((Q - 1) / 88)

/* a = a1 * 2^13 + a0 with a0 in (-2^12, 2^12]. */
void cs_mldsa_power2round_portable(cs_mldsa_poly *a1, cs_mldsa_poly *a0,
                                   const cs_mldsa_poly *a)
{
    for (unsigned i = 0; i < 256; i++) {
        int32_t x = a->c[i];
        int32_t hi = (x + (1 << (CS_MLDSA_D - 1)) - 1) >> CS_MLDSA_D;
        a1->c[i] = hi;
        a0->c[i] = x - (hi << CS_MLDSA_D);
    }
}

/* One Decompose: returns r1 and stores r0. r1 = ceil((r - gamma2)/(2gamma2))
 * = floor((r + gamma2 - 1)/(2gamma2)), the division done by a multiply and
 * shift that is exact on the whole range (checked exhaustively offline), so
 * no divide instruction and no data-dependent timing. */
static inline int32_t decompose1(int32_t *r0, int32_t r, int32_t gamma2)
{
    uint64_t x = (uint64_t)(uint32_t)(r + gamma2 - 1);
    int32_t r1, m;
    if (gamma2 == GAMMA2_88) {
        r1 = (int32_t)((x * 2886403u) >> 39);
        m = 44;
    } else {
        r1 = (int32_t)((x * 8396809u) >> 42);
        m = 16;
    }
    int32_t lo = r - r1 * 2 * gamma2;
    /* r - r0 = q - 1 (r1 == m): FIPS 204 sets r1 = 0 and r0 -= 1. */
    int32_t corner = ~((r1 - m) >> 31); /* -1 iff r1 == m (r1 <= m always) */
    *r0 = lo + corner;
    return r1 & ~corner;
}

/* Decompose every coefficient (a in [0, q)). */
void cs_mldsa_decompose_portable(cs_mldsa_poly *a1, cs_mldsa_poly *a0, const cs_mldsa_poly *a,
                                 int32_t gamma2)
{
    for (unsigned i = 0; i < 256; i++)
        a1->c[i] = decompose1(&a0->c[i], a->c[i], gamma2);
}

/* h_i = [a0 > gamma2] | [a0 < -gamma2] | ([a0 == -gamma2] & [a1 != 0]),
 * computed with sign bits only; returns the number of ones. */
unsigned cs_mldsa_make_hint_portable(cs_mldsa_poly *h, const cs_mldsa_poly *a0,
                                     const cs_mldsa_poly *a1, int32_t gamma2)
{
    unsigned n = 0;
    for (unsigned i = 0; i < 256; i++) {
        int32_t x = a0->c[i], y = a1->c[i];
        uint32_t gt = (uint32_t)(gamma2 - x) >> 31;
        uint32_t lt = (uint32_t)(x + gamma2) >> 31;
        uint32_t e = (uint32_t)(x + gamma2);
        uint32_t eq = 1 ^ ((e | (0u - e)) >> 31);
        uint32_t ynz = ((uint32_t)y | (0u - (uint32_t)y)) >> 31;
        uint32_t bit = gt | lt | (eq & ynz);
        h->c[i] = (int32_t)bit;
        n += bit;
    }
    return n;
}

/* UseHint: HighBits(a) moved one step (mod m) towards LowBits' sign where
 * h_i = 1. Public data, but branch-free anyway. */
void cs_mldsa_use_hint_portable(cs_mldsa_poly *b, const cs_mldsa_poly *a,
                                const cs_mldsa_poly *h, int32_t gamma2)
{
    int32_t m = gamma2 == GAMMA2_88 ? 44 : 16;
    for (unsigned i = 0; i < 256; i++) {
        int32_t r0;
        int32_t r1 = decompose1(&r0, a->c[i], gamma2);
        int32_t hint = h->c[i];
        /* step = +1 if r0 > 0, else -1; applied only when hint is 1. */
        int32_t step = 1 - 2 * (int32_t)((uint32_t)(r0 - 1) >> 31);
        int32_t v = r1 + hint * step;
        v += m & (v >> 31);          /* -1 -> m-1 */
        v -= m & ~((v - m) >> 31);   /* m -> 0 */
        b->c[i] = v;
    }
}

/* Nonzero iff some |a_i| >= bound; reads all coefficients. */
int cs_mldsa_chknorm_portable(const cs_mldsa_poly *a, int32_t bound)
{
    uint32_t bad = 0;
    for (unsigned i = 0; i < 256; i++) {
        int32_t x = a->c[i];
        int32_t s = x >> 31;
        int32_t absx = (x ^ s) - s;
        bad |= (uint32_t)(bound - 1 - absx);
    }
    return (int)(bad >> 31);
}
