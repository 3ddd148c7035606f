/* AVX-512 IFMA paired exponentiation: two independent 1024-bit modular
 * exponentiations with secret exponents (RSA-2048's CRT halves) in one
 * instruction stream. Each multiplication and squaring is the column-serial
 * almost-Montgomery step of ifma.c, run for both halves side by side: one
 * half's scalar reduction chain (q = x*n0, then the next column) hides under
 * the other's vector products, so the pair runs at the IFMA throughput bound
 * instead of the chain's latency, and the specialised squaring (about a
 * fifth fewer IFMAs) turns into time saved. Built with IFMA flags
 * (mk/ifma2.mk); called only when the CPU has AVX512IFMA. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <string.h>

#include "x86_kernels.h"
#include "xv.h"

#define M52 ((1ull << 52) - 1)
#define NV 5        /* vectors of 4 digits */
#define ND (4 * NV) /* digits: 20 x 52 = 1040 bits, R' = 2^1040 */
#define WIN 5       /* fixed window of the secret-exponent ladder */

static inline uint64_t hi52(unsigned __int128 p) { return (uint64_t)(p >> 52); }

/* Both halves' numbers interleaved digit by digit: p[2j + h] is digit j of
 * half h. A 512-bit vector then holds digits 4v..4v+3 of both halves, so one
 * instruction stream serves the two, a one-digit shift is a two-lane shift
 * of the whole vector, and everything fits the 32 vector registers. */
typedef uint64_t pair[2 * ND] __attribute__((aligned(64)));

/* The two moduli and their constants, interleaved as above. */
typedef struct {
    pair m;
    uint64_t n0[2];
} pair_ctx;

#define ODD 0xAA /* lanes of half 1 */

/* A vector with x0 in half 0's lanes and x1 in half 1's. */
static inline __m512i bcast2(uint64_t x0, uint64_t x1)
{
    return _mm512_mask_blend_epi64(ODD, _mm512_set1_epi64((long long)x0),
                                   _mm512_set1_epi64((long long)x1));
}

/* Digit j of both halves, from interleaved p, in every lane pair. */
static inline __m512i pair_digit(const uint64_t *p, size_t j)
{
    return bcast2(p[2 * j], p[2 * j + 1]);
}

/* Lanes 2, 3 and lanes 4, 5 of v. */
static inline __m128i lanes23(__m512i v)
{
    return _mm256_extracti128_si256(_mm512_castsi512_si256(v), 1);
}
static inline __m128i lanes45(__m512i v)
{
    return _mm256_castsi256_si128(_mm512_extracti64x4_epi64(v, 1));
}

/* Writes the accumulated columns VL (the two lowest lanes replaced by the
 * scalar columns x0, x1) as normalised digits to r. */
static inline __attribute__((always_inline)) void normalise(uint64_t *r, const __m512i *VL,
                                                            uint64_t x0, uint64_t x1)
{
    pair t;
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++)
        _mm512_storeu_si512((__m512i *)(t + 8 * v), VL[v]);
    t[0] = x0, t[1] = x1;
    uint64_t c0 = 0, c1 = 0;
#pragma GCC unroll 20
    for (size_t j = 0; j < ND; j++) {
        uint64_t s0 = t[2 * j] + c0, s1 = t[2 * j + 1] + c1;
        r[2 * j] = s0 & M52, r[2 * j + 1] = s1 & M52;
        c0 = s0 >> 52, c1 = s1 >> 52;
    }
}

/* After step i's products, before the shift: what steps up to i put into
 * column i+2 of both halves (digit 2 of the low halves, lanes 4 and 5, plus
 * digit 1 of the high halves, lanes 2 and 3). Read here rather than after
 * the shift and the next step's products, it keeps the shift, an IFMA and
 * a lane extraction off the q chain; the next step's own products into
 * that column are added in scalar. */
static inline __m128i cols_ahead(__m512i VL0, __m512i VH0)
{
    return _mm_add_epi64(lanes45(VL0), lanes23(VH0));
}

static inline uint64_t lo52(uint64_t a, uint64_t b) { return (a * b) & M52; }
static inline uint64_t hi52m(uint64_t a, uint64_t b) { return hi52((unsigned __int128)a * b); }

/* r = a*b/R' mod m (almost: below 2m) for both halves, inputs below 2m with
 * normalised digits, all interleaved; r may alias a or b. The step is
 * amm_core's in ifma.c (see there for the scalar column), on both halves. */
static void amm2(uint64_t *r, const uint64_t *a, const uint64_t *b, const pair_ctx *pc)
{
    __m512i A[NV], Mv[NV], VL[NV], VH[NV];
    const __m512i zero = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++) {
        A[v] = _mm512_loadu_si512((const __m512i *)(a + 8 * v));
        Mv[v] = _mm512_loadu_si512((const __m512i *)(pc->m + 8 * v));
        VL[v] = zero;
    }
    const uint64_t n00 = pc->n0[0], n01 = pc->n0[1];
    const uint64_t m00 = pc->m[0], m01 = pc->m[1], m10 = pc->m[2], m11 = pc->m[3];
    /* bt[i] (both halves): step i's b products into column i+1,
     * lo(a1 b_i) + hi(a0 b_i), and step i+1's into its lowest digit,
     * lo(a0 b_{i+1}): by vector for all steps at once, keeping the scalar
     * multiplier free for the q chain. */
    pair bt;
    {
        const __m512i A0 = bcast2(a[0], a[1]);
        const __m512i A1 = bcast2(a[2], a[3]);
#pragma GCC unroll 8
        for (size_t v = 0; v < NV; v++) {
            const __m512i Bv = _mm512_loadu_si512((const __m512i *)(b + 8 * v));
            const __m512i Bn = v + 1 < NV ? _mm512_loadu_si512((const __m512i *)(b + 8 * v + 8)) : zero;
            __m512i t = _mm512_madd52lo_epu64(zero, A1, Bv);
            t = _mm512_madd52hi_epu64(t, A0, Bv);
            t = _mm512_madd52lo_epu64(t, A0, _mm512_alignr_epi64(Bn, Bv, 2));
            _mm512_storeu_si512((__m512i *)(bt + 8 * v), t);
        }
    }
    const uint64_t a00 = a[0], a01 = a[1];
    uint64_t x0 = (a00 * b[0]) & M52, x1 = (a01 * b[1]) & M52;
    __m128i ahead = _mm_setzero_si128(); /* column i+1 from steps before i */
#pragma GCC unroll 2
    for (size_t i = 0; i < ND; i++) {
        const uint64_t q0 = (x0 * n00) & M52, q1 = (x1 * n01) & M52;
        const uint64_t c0 = (x0 + M52) >> 52, c1 = (x1 + M52) >> 52;
        const __m512i B = pair_digit(b, i);
#pragma GCC unroll 8
        for (size_t v = 0; v < NV; v++) {
            VL[v] = _mm512_madd52lo_epu64(VL[v], A[v], B);
            VH[v] = _mm512_madd52hi_epu64(zero, A[v], B);
        }
        const __m512i Q = bcast2(q0, q1);
#pragma GCC unroll 8
        for (size_t v = 0; v < NV; v++) {
            VL[v] = _mm512_madd52lo_epu64(VL[v], Mv[v], Q);
            VH[v] = _mm512_madd52hi_epu64(VH[v], Mv[v], Q);
        }
        const __m128i y = ahead;
        ahead = cols_ahead(VL[0], VH[0]);
#pragma GCC unroll 8
        for (size_t v = 0; v < NV; v++) {
            __m512i next = v + 1 < NV ? VL[v + 1] : zero;
            VL[v] = _mm512_add_epi64(_mm512_alignr_epi64(next, VL[v], 2), VH[v]);
        }
        /* Column i+1: earlier steps, this step's b and q products, the next
         * step's b product into its lowest digit. */
        x0 = (uint64_t)_mm_cvtsi128_si64(y) + bt[2 * i] + c0 + hi52m(m00, q0) + lo52(m10, q0);
        x1 = (uint64_t)_mm_extract_epi64(y, 1) + bt[2 * i + 1] + c1 + hi52m(m01, q1) +
             lo52(m11, q1);
    }
    normalise(r, VL, x0, x1);
}

/* r = a^2/R' mod m (almost) for both halves, interleaved: asqr_core of
 * ifma.c (row i multiplies a_i by the digits from i on, doubled off the
 * diagonal, the doubled digit's 53rd bit added separately) on both halves. */
static void asqr2(uint64_t *r, const uint64_t *a, const pair_ctx *pc)
{
    __m512i A[NV], Mv[NV], VL[NV], VH[NV];
    const __m512i zero = _mm512_setzero_si512();
    const __m512i mask52 = _mm512_set1_epi64((long long)M52);
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++) {
        A[v] = _mm512_loadu_si512((const __m512i *)(a + 8 * v));
        Mv[v] = _mm512_loadu_si512((const __m512i *)(pc->m + 8 * v));
        VL[v] = zero;
    }
    const uint64_t n00 = pc->n0[0], n01 = pc->n0[1];
    const uint64_t m00 = pc->m[0], m01 = pc->m[1], m10 = pc->m[2], m11 = pc->m[3];
    /* Per digit: doubled (52 bits kept) and the doubling's 53rd bit as a
     * mask, for every row at once. */
    pair dd, tt;
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++) {
        _mm512_storeu_si512((__m512i *)(dd + 8 * v),
                           _mm512_and_si512(_mm512_slli_epi64(A[v], 1), mask52));
        _mm512_storeu_si512((__m512i *)(tt + 8 * v),
                           _mm512_srai_epi64(_mm512_slli_epi64(A[v], 12), 63));
    }
    uint64_t x0 = (a[0] * a[0]) & M52, x1 = (a[1] * a[1]) & M52;
    /* Rows 0 and 1's products into columns 1 and 2 (see cols_ahead). */
    const uint64_t a00 = a[0], a01 = a[1], a10 = a[2], a11 = a[3];
    const uint64_t row0_0 = lo52(a10, (a00 << 1) & M52) + hi52m(a00, a00);
    const uint64_t row0_1 = lo52(a11, (a01 << 1) & M52) + hi52m(a01, a01);
    const uint64_t row1_0 = lo52(a10, a10), row1_1 = lo52(a11, a11);
    __m128i ahead = _mm_setzero_si128();
#pragma GCC unroll 8
    for (size_t u = 0; u < NV; u++) {
#pragma GCC unroll 4
        for (size_t s = 0; s < 4; s++) {
            const size_t i = 4 * u + s;
            /* Lanes of vector u: digits below 4u+s done by earlier rows,
             * the diagonal once, the digits above doubled. */
            const __mmask8 above = (__mmask8)(0xFF << (2 * s + 2)), diag = (__mmask8)(3 << (2 * s));
            const uint64_t q0 = (x0 * n00) & M52, q1 = (x1 * n01) & M52;
            const uint64_t c0 = (x0 + M52) >> 52, c1 = (x1 + M52) >> 52;
            const __m512i AI = pair_digit(a, i), D = pair_digit(dd, i), T = pair_digit(tt, i);
            const __m512i Bu =
                _mm512_mask_blend_epi64(diag, _mm512_mask_blend_epi64(above, zero, D), AI);
            VL[u] = _mm512_madd52lo_epu64(VL[u], A[u], Bu);
            VH[u] = _mm512_madd52hi_epu64(
                _mm512_and_si512(A[u], _mm512_mask_blend_epi64(above, zero, T)), A[u], Bu);
#pragma GCC unroll 8
            for (size_t v = u + 1; v < NV; v++) {
                VL[v] = _mm512_madd52lo_epu64(VL[v], A[v], D);
                VH[v] = _mm512_madd52hi_epu64(_mm512_and_si512(A[v], T), A[v], D);
            }
#pragma GCC unroll 8
            for (size_t v = 0; v < u; v++)
                VH[v] = zero;
            const __m512i Q = bcast2(q0, q1);
#pragma GCC unroll 8
            for (size_t v = 0; v < NV; v++) {
                VL[v] = _mm512_madd52lo_epu64(VL[v], Mv[v], Q);
                VH[v] = _mm512_madd52hi_epu64(VH[v], Mv[v], Q);
            }
            const __m128i y = ahead;
            ahead = cols_ahead(VL[0], VH[0]);
#pragma GCC unroll 8
            for (size_t v = 0; v < NV; v++) {
                __m512i next = v + 1 < NV ? VL[v + 1] : zero;
                VL[v] = _mm512_add_epi64(_mm512_alignr_epi64(next, VL[v], 2), VH[v]);
            }
            /* Row i's products reach column i+1 only for rows 0 and 1. */
            const uint64_t r0 = i == 0 ? row0_0 : i == 1 ? row1_0 : 0;
            const uint64_t r1 = i == 0 ? row0_1 : i == 1 ? row1_1 : 0;
            x0 = (uint64_t)_mm_cvtsi128_si64(y) + r0 + c0 + hi52m(m00, q0) + lo52(m10, q0);
            x1 = (uint64_t)_mm_extract_epi64(y, 1) + r1 + c1 + hi52m(m01, q1) + lo52(m11, q1);
        }
    }
    normalise(r, VL, x0, x1);
}

/* out = entry idx0 of half 0 and entry idx1 of half 1 of the interleaved
 * table, reading every entry under lane masks: the indices are secret. */
static void select2(uint64_t *out, const uint64_t *tab, size_t entries, unsigned idx0,
                    unsigned idx1)
{
    const __m512i want = bcast2(idx0, idx1), zero = _mm512_setzero_si512();
    __m512i acc[NV];
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++)
        acc[v] = _mm512_setzero_si512();
    for (size_t j = 0; j < entries; j++) {
        const __m512i mask = _mm512_mask_blend_epi64(
            _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((long long)j), want), zero,
            _mm512_set1_epi64(-1));
        const uint64_t *t = tab + j * 2 * ND;
#pragma GCC unroll 8
        for (size_t v = 0; v < NV; v++)
            acc[v] = _mm512_or_si512(
                acc[v], _mm512_and_si512(_mm512_loadu_si512((const __m512i *)(t + 8 * v)), mask));
    }
#pragma GCC unroll 8
    for (size_t v = 0; v < NV; v++)
        _mm512_storeu_si512((__m512i *)(out + 8 * v), acc[v]);
}

/* p = d0 and d1 interleaved (ND digits each). */
static void interleave(uint64_t *p, const uint64_t *d0, const uint64_t *d1)
{
    for (size_t j = 0; j < ND; j++)
        p[2 * j] = d0[j], p[2 * j + 1] = d1[j];
}

/* Bits pos .. pos+WIN-1 of e as a number; bits at or above ebits read as
 * zero. Positions and lengths are public, the value may be secret. */
static unsigned window(const cs_limb *e, size_t ebits, size_t pos)
{
    unsigned v = 0;
    for (unsigned k = 0; k < WIN; k++) {
        size_t p = pos + k;
        if (p < ebits)
            v |= (unsigned)((e[p / 64] >> (p % 64)) & 1) << k;
    }
    return v;
}

/* Fills c for mont if this kernel serves it (20 digits used and held, i.e.
 * 987..1038-bit moduli); returns 0 or -1. */
static int setup(xv_ctx *c, const cs_mont *mont)
{
    if (mont->bits < 512 || xv_setup(c, mont, 52, NULL, NULL) || c->K != ND || c->iters != ND)
        return -1;
    return 0;
}

/* Fixed-window ladder for both halves over the longer exponent (the shorter
 * reads as zero-padded): every window costs WIN paired squarings and one
 * paired multiplication by entries read under masks. */
static void ladder2(const pair_ctx *pc, uint64_t *acc, const uint64_t *am, const uint64_t *onem,
                    const cs_limb *const e[2], const size_t eb[2])
{
    enum { ENTRIES = 1 << WIN };
    uint64_t tab[ENTRIES * 2 * ND] __attribute__((aligned(64)));
    pair sel;
    memcpy(tab, onem, sizeof(pair));
    memcpy(tab + 2 * ND, am, sizeof(pair));
    for (size_t j = 2; j < ENTRIES; j++) {
        if (j & 1)
            amm2(tab + j * 2 * ND, tab + (j - 1) * 2 * ND, am, pc);
        else
            asqr2(tab + j * 2 * ND, tab + (j / 2) * 2 * ND, pc);
    }
    size_t ebits = eb[0] > eb[1] ? eb[0] : eb[1];
    size_t nwin = (ebits + WIN - 1) / WIN;
    size_t top = (nwin - 1) * WIN;
    select2(acc, tab, ENTRIES, window(e[0], eb[0], top), window(e[1], eb[1], top));
    for (size_t k = nwin - 1; k-- > 0;) {
        for (unsigned s = 0; s < WIN; s++)
            asqr2(acc, acc, pc);
        select2(sel, tab, ENTRIES, window(e[0], eb[0], k * WIN), window(e[1], eb[1], k * WIN));
        amm2(acc, acc, sel, pc);
    }
    explicit_bzero(tab, sizeof tab);
    explicit_bzero(sel, sizeof sel);
}

/* See cs_bn_kernel.exp_x2. */
int cs_ifma_exp_x2(cs_limb *r0, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
                   const cs_mont *mont0, cs_limb *r1, const cs_limb *a1, const cs_limb *e1,
                   size_t ebits1, const cs_mont *mont1)
{
    xv_ctx c[2];
    if (ebits0 > CS_BN_MAX_EXP_BITS || ebits1 > CS_BN_MAX_EXP_BITS || setup(&c[0], mont0) ||
        setup(&c[1], mont1))
        return -1;
    const cs_limb *e[2] = {e0, e1};
    const size_t eb[2] = {ebits0, ebits1};
    pair_ctx pc;
    pair am, rr, one, onem, acc;
    uint64_t d0[ND], d1[ND];
    interleave(pc.m, c[0].m, c[1].m);
    pc.n0[0] = c[0].n0, pc.n0[1] = c[1].n0;
    interleave(rr, c[0].rr, c[1].rr);
    interleave(one, c[0].one, c[1].one);
    xv_to_digits(&c[0], d0, a0);
    xv_to_digits(&c[1], d1, a1);
    interleave(am, d0, d1);
    amm2(am, am, rr, &pc);    /* a R' */
    amm2(onem, rr, one, &pc); /* R' */
    if (eb[0] == 0 && eb[1] == 0)
        memcpy(acc, onem, sizeof acc);
    else
        ladder2(&pc, acc, am, onem, e, eb);
    amm2(acc, acc, one, &pc); /* out of Montgomery form: <= m */
    for (size_t j = 0; j < ND; j++)
        d0[j] = acc[2 * j], d1[j] = acc[2 * j + 1];
    xv_from_digits_mod(&c[0], r0, d0);
    xv_from_digits_mod(&c[1], r1, d1);
    explicit_bzero(am, sizeof am);
    explicit_bzero(acc, sizeof acc);
    explicit_bzero(d0, sizeof d0);
    explicit_bzero(d1, sizeof d1);
    return 0;
}
