/* The X25519 ladder of the "x86_64-ifma" table (ifma.c): the whole RFC 7748
 * Montgomery ladder, four field elements at a time in the four 64-bit lanes
 * of a ymm register, products by AVX-512 IFMA (vpmadd52luq/huq, AVX512VL).
 *
 * void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);
 * has table64.h's LADDER_FN contract: bits 254..0 of the clamped k on u = x1
 * (x1 in fe64's form, any value below 2^256), x2 to xz[0..3] and z2 to
 * xz[4..7], each below 2^256.
 *
 * Representation (fe4): five ymm registers, register i holding limb i (radix
 * 2^51) of the four lanes' elements. IFMA reads only bits 0..51 of each
 * multiplicand, so every value that enters a product has all limbs below
 * 2^52; the bounds below say where that needs a carry round:
 * - a product (fe4_mul) leaves limbs below 2^51 + 2^16 (limb 0; the others
 *   below 2^51 + 2^11): one parallel carry round over columns below 2^62;
 * - a sum, or a difference plus 2p (limbs 2^52 - 38, 2^52 - 2: above any
 *   subtrahend here), of two such values is below 2^53 and gets one carry
 *   round (fe4_carry), ending below 2^52 again.
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
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../../ct.h"

#define IFMA_INLINE static inline __attribute__((always_inline))
#define M51 ((1ULL << 51) - 1)

typedef struct {
    __m256i l[5];
} fe4;

/* The lanes of v in the order a, b, c, d (vpermq's immediate). */
#define PERM(v, a, b, c, d) _mm256_permute4x64_epi64((v), (a) | (b) << 2 | (c) << 4 | (d) << 6)

/* h = c with one parallel carry round (2^255 = 19): columns c below 2^62 give
 * limbs below 2^51 + 2^11, limb 0 below 2^51 + 19 * 2^11. */
IFMA_INLINE void fe4_carry(fe4 *h, const __m256i c[5])
{
    const __m256i m = _mm256_set1_epi64x((long long)M51);
    __m256i k0 = _mm256_srli_epi64(c[0], 51), k1 = _mm256_srli_epi64(c[1], 51);
    __m256i k2 = _mm256_srli_epi64(c[2], 51), k3 = _mm256_srli_epi64(c[3], 51);
    __m256i k4 = _mm256_srli_epi64(c[4], 51);
    h->l[0] = _mm256_add_epi64(_mm256_and_si256(c[0], m), _mm256_mul_epu32(k4, _mm256_set1_epi64x(19)));
    h->l[1] = _mm256_add_epi64(_mm256_and_si256(c[1], m), k0);
    h->l[2] = _mm256_add_epi64(_mm256_and_si256(c[2], m), k1);
    h->l[3] = _mm256_add_epi64(_mm256_and_si256(c[3], m), k2);
    h->l[4] = _mm256_add_epi64(_mm256_and_si256(c[4], m), k3);
}

/* h = f * g + init, lane by lane (limbs of f, g below 2^52, of init below
 * 2^52), carried. f_i g_j = lo + 2^52 hi: lo goes to column i + j, 2 hi to
 * column i + j + 1, columns from 5 up fold into 0..4 times 19. Four
 * accumulators per output limb m keep each IFMA chain at most five long:
 * x (lo, column m), y (hi, from column m - 1), w (lo, column m + 5), v (hi,
 * from column m + 4); limb m = x + 2y + 19 (w + 2v), below 2^60.2 + 2^52. */
IFMA_INLINE void fe4_mul(fe4 *h, const fe4 *f, const fe4 *g, const __m256i init[5])
{
    __m256i x[5], y[5], w[5], v[5], c[5];
    #pragma GCC unroll 5
    for (int m = 0; m < 5; m++) {
        x[m] = init[m];
        y[m] = w[m] = v[m] = _mm256_setzero_si256();
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        #pragma GCC unroll 5
        for (int j = 0; j < 5; j++) {
            int k = i + j;
            if (k < 5)
                x[k] = _mm256_madd52lo_epu64(x[k], f->l[i], g->l[j]);
            else
                w[k - 5] = _mm256_madd52lo_epu64(w[k - 5], f->l[i], g->l[j]);
            if (k + 1 < 5)
                y[k + 1] = _mm256_madd52hi_epu64(y[k + 1], f->l[i], g->l[j]);
            else
                v[k - 4] = _mm256_madd52hi_epu64(v[k - 4], f->l[i], g->l[j]);
        }
    }
    #pragma GCC unroll 5
    for (int m = 0; m < 5; m++) {
        /* t = w + 2v; x + 2y + 19t = x + t + 2(y + t + 8t) */
        __m256i t = _mm256_add_epi64(w[m], _mm256_add_epi64(v[m], v[m]));
        __m256i u = _mm256_add_epi64(y[m], _mm256_add_epi64(t, _mm256_slli_epi64(t, 3)));
        c[m] = _mm256_add_epi64(_mm256_add_epi64(x[m], t), _mm256_add_epi64(u, u));
    }
    fe4_carry(h, c);
}

/* h = f + g in lanes 0 and 2, g - f + 2p in lanes 1 and 3, carried: in
 * those lanes ~f = 2^64 - 1 - f, so g + (2p + 1) + ~f wraps to g - f + 2p
 * (2p limb by limb: 2^52 - 38, then 2^52 - 2). */
IFMA_INLINE void fe4_addsub(fe4 *h, const fe4 *f, const fe4 *g)
{
    const __m256i neg13 = _mm256_set_epi64x(-1, 0, -1, 0);
    __m256i c[5];
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        long long b = (i == 0 ? (1LL << 52) - 38 : (1LL << 52) - 2) + 1;
        __m256i gb = _mm256_add_epi64(g->l[i], _mm256_set_epi64x(b, 0, b, 0));
        c[i] = _mm256_add_epi64(gb, _mm256_xor_si256(f->l[i], neg13));
    }
    fe4_carry(h, c);
}

/* Lanes 1 and 3 (vpblendd's immediate for two 64-bit lanes). */
#define LANES13 0xcc

/* One ladder step on the swapped state s = [x2, z2, x3, z3] (limbs below
 * 2^51 + 2^16) with x1v = x1 in lane 3 (limbs below 2^52): s becomes [x2',
 * z2', x3', z3'], the double of (x2:z2) and the sum, with the same bounds. */
IFMA_INLINE void ladder_step(fe4 *s, const fe4 *x1v)
{
    fe4 p, abcd, l, r, q, mm, t, u;
    __m256i init[5], zero = _mm256_setzero_si256();
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        p.l[i] = PERM(s->l[i], 1, 0, 3, 2);
    fe4_addsub(&abcd, s, &p); /* [A, B, C, D] */
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
    fe4_addsub(&mm, &q, &p); /* [-, E, DA + CB, DA - CB] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        /* lane 1 of the right operand: 121666 (limb 0), else 0 */
        __m256i bb_a24 = _mm256_blend_epi32(p.l[i], _mm256_set1_epi64x(i == 0 ? 121666 : 0), 0x0c);
        l.l[i] = _mm256_blend_epi32(mm.l[i], q.l[i], 0x03);
        r.l[i] = _mm256_blend_epi32(mm.l[i], bb_a24, 0x0f);
        init[i] = _mm256_blend_epi32(zero, q.l[i], 0x0c);
    }
    fe4_mul(&t, &l, &r, init); /* [x2', BB + 121666 E, x3', (DA - CB)^2] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        l.l[i] = _mm256_blend_epi32(mm.l[i], t.l[i], 0xc0);
        r.l[i] = _mm256_blend_epi32(t.l[i], x1v->l[i], 0xc0);
        init[i] = zero;
    }
    fe4_mul(&u, &l, &r, init); /* [-, z2', -, z3'] */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        s->l[i] = _mm256_blend_epi32(t.l[i], u.l[i], LANES13);
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

/* Limb i of lane `lane`. */
static uint64_t lane_of(__m256i v, int lane)
{
    uint64_t q[4];
    _mm256_storeu_si256((__m256i *)q, v);
    return q[lane];
}

/* out (4x64, below 2^256) = the element in lane `lane` of s (limbs below
 * 2^52): one carry pass from limb 0 up leaves limb 4 below 2^52, so the
 * packed value is exact and below 2^256. */
static void fe4_get(uint64_t out[4], const fe4 *s, int lane)
{
    uint64_t t[5];
    for (int i = 0; i < 5; i++)
        t[i] = lane_of(s->l[i], lane);
    for (int i = 0; i < 4; i++) {
        t[i + 1] += t[i] >> 51;
        t[i] &= M51;
    }
    out[0] = t[0] | t[1] << 51;
    out[1] = t[1] >> 13 | t[2] << 38;
    out[2] = t[2] >> 26 | t[3] << 25;
    out[3] = t[3] >> 39 | t[4] << 12;
    cs_wipe(t, sizeof(t));
}

void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32]);

void cs_c25519_ifma_ladder(uint64_t xz[8], const uint64_t x1[4], const uint8_t k[32])
{
    /* x1 in radix 2^51, bit 255 folded (2^255 = 19): limbs below 2^51 + 19 */
    uint64_t u[5];
    u[0] = x1[0] & M51;
    u[1] = (x1[0] >> 51 | x1[1] << 13) & M51;
    u[2] = (x1[1] >> 38 | x1[2] << 26) & M51;
    u[3] = (x1[2] >> 25 | x1[3] << 39) & M51;
    u[4] = x1[3] >> 12;
    u[0] += 19 * (u[4] >> 51);
    u[4] &= M51;
    fe4 s, x1v;
    for (int i = 0; i < 5; i++) {
        /* s = [x2, z2, x3, z3] = [1, 0, x1, 1]; x1v = x1 in lane 3 */
        s.l[i] = _mm256_set_epi64x(i == 0, (long long)u[i], 0, i == 0);
        x1v.l[i] = _mm256_set_epi64x((long long)u[i], 0, 0, 0);
    }
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
    cs_wipe(u, sizeof(u));
    cs_wipe(&s, sizeof(s));
    cs_wipe(&x1v, sizeof(x1v));
}
