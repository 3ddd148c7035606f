/* Ed25519 verification's double-scalar multiplication for the
 * "x86_64-ifma" table (ifma.c), on the four-lane IFMA field of fe4_ifma.h:
 * a point lives in one fe4 as its extended coordinates [X, Y, Z, T], so
 * each addition or doubling is two four-lane products (the four products
 * of add-2008-hwcd-3 / dbl-2008-hwcd's squares, then E*F, G*H, F*G, E*H).
 *
 * void cs_c25519_ifma_double_mul(uint64_t xyz[12], const int8_t na[256],
 *                                const uint64_t A[16], const int8_t nb[256]);
 * has table64.h's DOUBLE_MUL_FN contract: X, Y, Z of sum(na[i] 2^i) A +
 * sum(nb[i] 2^i) B, for width-5 and width-8 NAF digits (ed25519_ops.h's
 * ed_wnaf) and A's X, Y, Z, T in fe64's form (each below 2^256), to
 * xyz[0..11] (each below 2^256). Variable time: verification's inputs are
 * public. */
#include "fe4_ifma.h"

#include "../ed25519_table.h"

/* 2d mod p in radix 2^51 (d = -121665/121666). */
static const uint64_t ed4_d2[5] = {0x69b9426b2f159ULL, 0x35050762add7aULL, 0x3cf44c0038052ULL,
                                   0x6738cc7407977ULL, 0x2406d9dc56dffULL};

static const __m256i *ed4_zero(void)
{
    static const __m256i z[5];
    return z;
}

/* p = [E*F, G*H, F*G, E*H] from e = [E, F, G, H]: the completed sum or
 * double to extended coordinates [X, Y, Z, T], left as the product's
 * columns (limbs below 2^61): every reader of a point (ed4_dbl, ed4_add,
 * ed4_to_cached, fe4_get) starts with fe4_addsub or a carry pass of its
 * own, so no carry is needed here. */
IFMA_INLINE void ed4_finish(fe4 *p, const fe4 *e)
{
    fe4 f, g;
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        f.l[i] = PERM(e->l[i], 0, 2, 1, 0);
        g.l[i] = PERM(e->l[i], 1, 3, 2, 3);
    }
    fe4_mul_cols(p->l, &f, &g, ed4_zero());
}

/* p = 2p (dbl-2008-hwcd, a = -1, T not read), with F and H negated as in
 * ed25519_ops.h's ed_dbl: every coordinate negated, the same point. */
static void ed4_dbl(fe4 *p)
{
    const __m256i zero = _mm256_setzero_si256();
    fe4 f, g, v, t;
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) { /* [X, Y, Z, X + Y] */
        f.l[i] = PERM(p->l[i], 0, 1, 2, 0);
        g.l[i] = _mm256_blend_epi32(zero, PERM(p->l[i], 0, 0, 0, 1), LANES(0, 0, 0, 1));
    }
    fe4_addsub(&v, &f, &g, 0);
    fe4_mul_cols(t.l, &v, &v, ed4_zero()); /* [a, b, c, e] = [X^2, Y^2, Z^2, (X + Y)^2] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) { /* [a + b, b - a, 2c, e] = [-H, G, 2c, e] */
        f.l[i] = _mm256_blend_epi32(PERM(t.l[i], 0, 0, 2, 3), zero, LANES(0, 0, 0, 1));
        g.l[i] = PERM(t.l[i], 1, 1, 2, 3);
    }
    fe4_addsub(&v, &f, &g, LANES(0, 1, 0, 0));
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) { /* [e - (a + b), 2c - G, G, -H] = [E, -F, G, -H] */
        f.l[i] = _mm256_blend_epi32(PERM(v.l[i], 0, 1, 0, 0), zero, LANES(0, 0, 1, 1));
        g.l[i] = PERM(v.l[i], 3, 2, 1, 0);
    }
    fe4_addsub(&t, &f, &g, LANES(1, 1, 0, 0));
    ed4_finish(p, &t);
}

/* [Y - X, Y + X, T, Z] of p = [X, Y, Z, T], carried. */
IFMA_INLINE void ed4_diff_sum(fe4 *s, const fe4 *p)
{
    const __m256i zero = _mm256_setzero_si256();
    fe4 f, g;
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        f.l[i] = _mm256_blend_epi32(PERM(p->l[i], 0, 0, 0, 0), zero, LANES(0, 0, 1, 1));
        g.l[i] = PERM(p->l[i], 1, 1, 3, 2);
    }
    fe4_addsub(s, &f, &g, LANES(1, 0, 0, 0));
}

/* p = p + q for q = [y - x, y + x, 2d t, 2z] of a point (x, y, z, t)
 * (add-2008-hwcd-3), or p - q's point for q = [y + x, y - x, -2d t, 2z]. */
static void ed4_add(fe4 *p, const fe4 *q)
{
    fe4 s, m, f, g;
    ed4_diff_sum(&s, p);
    fe4_mul_cols(m.l, &s, q, ed4_zero()); /* [A, B, C, D], columns */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {   /* [B - A, D - C, D + C, B + A] = [E, F, G, H] */
        f.l[i] = PERM(m.l[i], 0, 2, 2, 0);
        g.l[i] = PERM(m.l[i], 1, 3, 3, 1);
    }
    fe4_addsub(&s, &f, &g, LANES(1, 1, 0, 0));
    ed4_finish(p, &s);
}

/* n = the negation's form of q: lanes 0 and 1 exchanged, lane 2 negated
 * (2p - v: limbs stay below 2^52, no carry needed). */
IFMA_INLINE void ed4_neg_cached(fe4 *n, const fe4 *q)
{
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        __m256i sw = PERM(q->l[i], 1, 0, 2, 3);
        __m256i neg = _mm256_sub_epi64(_mm256_set1_epi64x((long long)fe4_two_p[i]), q->l[i]);
        n->l[i] = _mm256_blend_epi32(sw, neg, LANES(0, 0, 1, 0));
    }
}

/* q = [Y - X, Y + X, 2d T, 2Z] of p = [X, Y, Z, T]. */
static void ed4_to_cached(fe4 *q, const fe4 *p)
{
    fe4 s, k;
    ed4_diff_sum(&s, p);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        k.l[i] = _mm256_set_epi64x(i == 0 ? 2 : 0, (long long)ed4_d2[i], i == 0, i == 0);
    fe4_mul(q, &s, &k, ed4_zero());
}

/* q = [y - x, y + x, 2d x y, 2] (to add) or [y + x, y - x, -2d x y, 2] (to
 * subtract) of the affine table entry e (ed25519_table.h's y + x, y - x,
 * 2d x y, each canonical). */
static void ed4_load_niels(fe4 *q, const uint8_t e[CS_ED25519_NIELS_BYTES], int sub)
{
    uint64_t w[3][4], u[3][5];
    memcpy(w, e, sizeof(w));
    #pragma GCC unroll 3
    for (int k = 0; k < 3; k++)
        fe4_to51(u[k], w[k]);
    int ymx = sub ? 0 : 1, ypx = sub ? 1 : 0;
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        uint64_t c = sub ? fe4_two_p[i] - u[2][i] : u[2][i];
        q->l[i] = _mm256_set_epi64x(i == 0 ? 2 : 0, (long long)c, (long long)u[ypx][i],
                                    (long long)u[ymx][i]);
    }
}

void cs_c25519_ifma_double_mul(uint64_t xyz[12], const int8_t na[256], const uint64_t A[16],
                               const int8_t nb[256]);

void cs_c25519_ifma_double_mul(uint64_t xyz[12], const int8_t na[256], const uint64_t A[16],
                               const int8_t nb[256])
{
    fe4 ai[8], an[8]; /* A, 3A, ..., 15A cached, and their negations' forms */
    fe4 p, a2;
    int i;
    fe4_set(&p, A, A + 4, A + 8, A + 12);
    ed4_to_cached(&ai[0], &p);
    a2 = p;
    ed4_dbl(&a2);
    for (int k = 1; k < 8; k++) {
        fe4 t = a2;
        ed4_add(&t, &ai[k - 1]);
        ed4_to_cached(&ai[k], &t);
    }
    #pragma GCC unroll 8
    for (int k = 0; k < 8; k++)
        ed4_neg_cached(&an[k], &ai[k]);
    static const uint64_t one[4] = {1, 0, 0, 0}, zero4[4] = {0, 0, 0, 0};
    fe4_set(&p, zero4, one, one, zero4);
    for (i = 255; i >= 0 && !na[i] && !nb[i]; i--)
        ;
    for (; i >= 0; i--) {
        ed4_dbl(&p);
        if (na[i])
            ed4_add(&p, na[i] > 0 ? &ai[na[i] / 2] : &an[-na[i] / 2]);
        if (nb[i]) {
            fe4 q;
            ed4_load_niels(&q, cs_ed25519_odd[(nb[i] < 0 ? -nb[i] : nb[i]) / 2], nb[i] < 0);
            ed4_add(&p, &q);
        }
    }
    fe4_get(xyz, &p, 0);
    fe4_get(xyz + 4, &p, 1);
    fe4_get(xyz + 8, &p, 2);
}
