/* The X25519 ladder of the "x86_64-ifma" table (ifma.c): the whole RFC 7748
 * Montgomery ladder, four field elements at a time in the four 64-bit lanes
 * of a ymm register, products by AVX-512 IFMA (vpmadd52luq/huq, AVX512VL).
 *
 * void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);
 * has table64.h's LADDER_FN contract: bits 254..0 of the clamped k on u = x1
 * (x1 in fe64's form, any value below 2^256), x2 to xz[0..3] and z2 to
 * xz[4..7], each below 2^256.
 *
 * Field: fe4_ifma.h (four elements, one per 64-bit lane, radix 2^51, the
 * bounds that keep every multiplicand below 2^52). z2' and z3' are left as
 * a product's uncarried columns (limbs below 2^61): only the next step's
 * sums and differences (fe4_addsub, which takes them) read them.
 * Lanes through a step, state S = [x2, z2, x3, z3] (after the swap):
 *   [A, B, C, D]   = [x2 + z2, x2 - z2, x3 + z3, x3 - z3]
 *   Q = [A, B, D, C] * [A, B, A, B]      = [AA, BB, DA, CB]
 *   M = [-, E, DA + CB, DA - CB]          E = AA - BB
 *   T = [AA, E, DA + CB, DA - CB] * [BB, 121666, DA + CB, DA - CB] + [0, BB, 0, 0]
 *     = [x2', BB + 121666 E, x3', (DA - CB)^2]
 *   U = [-, E, -, (DA - CB)^2] * [-, BB + 121666 E, -, x1] = [-, z2', -, z3']
 *   S' = [T0, U1, T2, U3]
 * (RFC 7748's z2 = E (AA + 121665 E) equals E (BB + 121666 E).) Three
 * products per step, the last with two lanes in use. Constant time: the
 * scalar bit only forms the mask of one blend per limb (the conditional
 * swap); no branch or address depends on k or x1. The limb loops carry
 * `#pragma GCC unroll` because gcc otherwise keeps some rolled, with the
 * limbs in memory. The static cost model of this loop against
 * ladder_adx.S's (llvm-mca; no IFMA machine here) is in docs/benchmarks.md,
 * "X25519 on AVX-512 IFMA". */
#include "fe4_ifma.h"

/* One ladder step on the swapped state s = [x2, z2, x3, z3] (limbs of x2
 * and x3 below 2^52, of z2 and z3 below 2^61) with x1v = x1 in lane 3
 * (limbs below 2^52): s becomes [x2', z2', x3', z3'], the double of (x2:z2)
 * and the sum, with the same bounds: z2' and z3' stay uncarried columns,
 * as only the next step's sums and differences read them. */
IFMA_INLINE void ladder_step(fe4 *s, const fe4 *x1v)
{
    fe4 p, abcd, l, r, q, mm, t, u;
    __m256i init[5], zero = _mm256_setzero_si256();
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        p.l[i] = PERM(s->l[i], 1, 0, 3, 2);
    fe4_addsub(&abcd, s, &p, LANES(0, 1, 0, 1)); /* [A, B, C, D] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        l.l[i] = PERM(abcd.l[i], 0, 1, 3, 2);
        r.l[i] = PERM(abcd.l[i], 0, 1, 0, 1);
        init[i] = zero;
    }
    fe4_mul(&q, &l, &r, init); /* [AA, BB, DA, CB] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        p.l[i] = PERM(q.l[i], 1, 0, 3, 2); /* [BB, AA, CB, DA] */
    fe4_addsub(&mm, &q, &p, LANES(0, 1, 0, 1)); /* [-, E, DA + CB, DA - CB] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        /* lane 1 of the right operand: 121666 (limb 0), else 0 */
        __m256i bb_a24 = _mm256_blend_epi32(p.l[i], _mm256_set1_epi64x(i == 0 ? 121666 : 0),
                                            LANES(0, 1, 0, 0));
        l.l[i] = _mm256_blend_epi32(mm.l[i], q.l[i], LANES(1, 0, 0, 0));
        r.l[i] = _mm256_blend_epi32(mm.l[i], bb_a24, LANES(1, 1, 0, 0));
        init[i] = _mm256_blend_epi32(zero, q.l[i], LANES(0, 1, 0, 0));
    }
    fe4_mul(&t, &l, &r, init); /* [x2', BB + 121666 E, x3', (DA - CB)^2] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        l.l[i] = _mm256_blend_epi32(mm.l[i], t.l[i], LANES(0, 0, 0, 1));
        r.l[i] = _mm256_blend_epi32(t.l[i], x1v->l[i], LANES(0, 0, 0, 1));
        init[i] = zero;
    }
    fe4_mul_cols(u.l, &l, &r, init); /* [-, z2', -, z3'] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        s->l[i] = _mm256_blend_epi32(t.l[i], u.l[i], LANES(0, 1, 0, 1));
}

/* The conditional swap of (x2, z2) with (x3, z3): lanes [2, 3, 0, 1] where
 * b is 1, by a mask-register blend (b only forms the mask). */
IFMA_INLINE void fe4_cswap(fe4 *s, uint64_t b)
{
    __mmask8 k = (__mmask8)(cs_ct_opaque(0 - b) & 0xf);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        s->l[i] = _mm256_mask_blend_epi64(k, s->l[i], PERM(s->l[i], 2, 3, 0, 1));
}

void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);

void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32])
{
    /* s = [x2, z2, x3, z3] = [1, 0, x1, 1]; x1v = x1 in lane 3 */
    static const uint64_t zero[4], one[4] = {1};
    fe4 s, x1v;
    fe4_set(&s, one, zero, x1, one);
    fe4_set(&x1v, zero, zero, zero, x1);
    uint64_t swap = 0;
    for (int pos = 254; pos >= 0; pos--) {
        uint64_t bit = (uint64_t)(k[pos >> 3] >> (pos & 7)) & 1;
        fe4_cswap(&s, swap ^ bit);
        swap = bit;
        ladder_step(&s, &x1v);
    }
    fe4_cswap(&s, swap);
    fe4_get(xz, &s, 0);
    fe4_get(xz + 4, &s, 1);
    cs_wipe(&s, sizeof(s));
    cs_wipe(&x1v, sizeof(x1v));
}
