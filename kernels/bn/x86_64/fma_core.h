/* The FMA kernel's arithmetic (fma.c), shared with its paired form
 * (fma_x2.c): 50-bit digits held exactly in doubles, products split by FMAs
 * against biased constants (see pair), and the almost-Montgomery product
 * scanning (ps_core in fma.c; ps_core2 for RSA's two
 * CRT halves, whose scalar q chains then overlap). Included only by sources
 * built with -mavx2 -mfma. Internal header. */
#ifndef CRYPTOSHIM_BN_X86_FMA_CORE_H
#define CRYPTOSHIM_BN_X86_FMA_CORE_H

#include <immintrin.h>
#include <string.h>

#include "xv.h"
/* 50 bits: one digit fewer than 49 at 1536, 2048 and 3072 bits, two at
 * 4096 (R' needs bits + 2). Every product is of non-negative digits, so the
 * high bias sits at the bottom of its binade and the whole binade is room:
 * the two products a group rounds into one double (two doubled squaring
 * products, 2a_j < 2^51 times a_i, or two reduction products) stay below
 * 2^102. With 51 bits a doubled pair would reach 2^104, past its binade. */
#define W 50
#define MW ((1ull << W) - 1)
#define FMA_MAX_BITS 4096

/* High parts: [2^102, 2^103) has ulp 2^50; low parts: 1.5*2^52 has ulp 1
 * (a low part or two, each within 2^49, stay in its binade). */
#define BIAS_H 0x1p102
#define BIAS_L 0x1.8p52
/* Their sum, exact in a double (bits 51..102): h - BIAS_HL is a high part
 * minus BIAS_L, so the FMA that takes the high part off a product leaves the
 * low part already biased for reading as an integer. */
#define BIAS_HL (BIAS_H + BIAS_L)

/* Digits (below 2^52) to doubles, exactly. */
static inline __m256d to_double(__m256i x)
{
    const __m256i bias = _mm256_set1_epi64x(0x4330000000000000ll);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, bias)),
                         _mm256_castsi256_pd(bias));
}

/* The bit pattern of a bias: each group of products adds one to its lanes
 * (pair, single), taken off by count before the columns are read. */
static inline uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Product scanning with separated carries: zero doubles either side of B
 * and M, so every block of four output columns reads whole unaligned
 * vectors whatever the row. */
#define PAD 4

/* Two vectors of products, x0*y0 and x1*y1 (each below 2^101), as one
 * group: the second high part is rounded on top of the first, so one
 * biased double (2^102 of room at ulp 2^W) holds both, and the two exact
 * low parts are summed as doubles (one biased, one within 2^49: still in
 * the binade of ulp 1). Adds the biased low sum to L and the biased high
 * sum to H (H's lanes belong one column up). 3.5 FP uops and one integer
 * add a vector of products, no shuffles. */
static inline __attribute__((always_inline)) void
pair(__m256i *L, __m256i *H, __m256d x0, __m256d y0, __m256d x1, __m256d y1)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H), MHL = _mm256_set1_pd(BIAS_HL);
    /* Keeps each unaligned load in a register: folded into both FMAs it
     * would be read twice, and half of these loads split cache lines. */
    __asm__("" : "+x"(y0), "+x"(y1));
    __m256d h0 = _mm256_fmadd_pd(x0, y0, MH);
    __m256d h1 = _mm256_fmadd_pd(x1, y1, h0);
    __m256d l0 = _mm256_fmsub_pd(x0, y0, _mm256_sub_pd(h0, MHL));
    __m256d l1 = _mm256_fmsub_pd(x1, y1, _mm256_sub_pd(h1, h0));
    *L = _mm256_add_epi64(*L, _mm256_castpd_si256(_mm256_add_pd(l0, l1)));
    *H = _mm256_add_epi64(*H, _mm256_castpd_si256(h1));
}

/* One vector of products as a group of its own (see pair). */
static inline __attribute__((always_inline)) void
single(__m256i *L, __m256i *H, __m256d x0, __m256d y0)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H), MHL = _mm256_set1_pd(BIAS_HL);
    __asm__("" : "+x"(y0));
    __m256d h0 = _mm256_fmadd_pd(x0, y0, MH);
    __m256d l0 = _mm256_fmsub_pd(x0, y0, _mm256_sub_pd(h0, MHL));
    *L = _mm256_add_epi64(*L, _mm256_castpd_si256(l0));
    *H = _mm256_add_epi64(*H, _mm256_castpd_si256(h0));
}

/* Products x[i] * y[-i..-i+3] for i = 0..n-1 (x broadcast from memory, y
 * read as unaligned vectors going down), in pairs, into L0, H0; with NH = 2
 * also the second number's, x[dx + i] * y[dy - i..], into L1, H1 in the
 * same loop. Counts the biases added to each lane of L and of H (the same
 * for both numbers) into *gl and *gh. */
static inline __attribute__((always_inline)) void
prods(__m256i *L0, __m256i *H0, __m256i *L1, __m256i *H1, size_t *gl, size_t *gh,
      const double *x, const double *y, size_t dx, size_t dy, size_t n, const int NH)
{
    const size_t np = n / 2;
#pragma GCC unroll 4
    for (size_t k = 0; k < np; k++) {
        pair(L0, H0, _mm256_broadcast_sd(x + 2 * k), _mm256_loadu_pd(y - 2 * k),
             _mm256_broadcast_sd(x + 2 * k + 1), _mm256_loadu_pd(y - 2 * k - 1));
        if (NH == 2)
            pair(L1, H1, _mm256_broadcast_sd(x + dx + 2 * k), _mm256_loadu_pd(y + dy - 2 * k),
                 _mm256_broadcast_sd(x + dx + 2 * k + 1), _mm256_loadu_pd(y + dy - 2 * k - 1));
    }
    *gl += np, *gh += np, x += 2 * np, y -= 2 * np, n -= 2 * np;
    if (n) {
        single(L0, H0, _mm256_broadcast_sd(x), _mm256_loadu_pd(y));
        if (NH == 2)
            single(L1, H1, _mm256_broadcast_sd(x + dx), _mm256_loadu_pd(y + dy));
        ++*gl, ++*gh;
    }
}

/* The two products of a squaring's diagonal rows i0, i1 (see ab_rows) for
 * the number whose digits are ad and doubled digits Bp. */
static inline __attribute__((always_inline)) void
diag_rows(__m256i *L, __m256i *H, const double *ad, const double *Bp, size_t c, size_t i0,
          size_t i1, size_t D)
{
    __m256d y0 = _mm256_blend_pd(_mm256_loadu_pd(Bp + PAD + c - i0), _mm256_broadcast_sd(ad + i0),
                                 0x1);
    if (i1 < D) {
        __m256d y1 = _mm256_blend_pd(_mm256_loadu_pd(Bp + PAD + c - i1),
                                     _mm256_broadcast_sd(ad + i1), 0x4);
        y1 = _mm256_blend_pd(y1, _mm256_setzero_pd(), 0x3);
        pair(L, H, _mm256_broadcast_sd(ad + i0), y0, _mm256_broadcast_sd(ad + i1), y1);
    } else {
        single(L, H, _mm256_broadcast_sd(ad + i0), y0);
    }
}

/* Block c's a*b rows: a_i times B[c-i..c-i+3] for every row meeting
 * columns c..c+3 (NH numbers, the second's arrays dx and dy further on, as
 * in prods). Squaring (sq, B = 2a): only the rows at or above the
 * diagonal, row c/2 with its square in lane 0, row c/2+1 with its square
 * in lane 2 and its lanes 0-1 (below the diagonal) zero. */
static inline __attribute__((always_inline)) void
ab_rows(__m256i *L0, __m256i *H0, __m256i *L1, __m256i *H1, size_t *gl, size_t *gh,
        const double *ad, const double *Bp, size_t dx, size_t dy, size_t c, size_t D, int sq,
        const int NH)
{
    const size_t ilo = c + 1 > D ? c + 1 - D : 0, ihi = c + 3 < D - 1 ? c + 3 : D - 1;
    if (!sq) {
        prods(L0, H0, L1, H1, gl, gh, ad + ilo, Bp + PAD + c - ilo, dx, dy, ihi + 1 - ilo, NH);
        return;
    }
    const size_t i0 = c / 2, i1 = c / 2 + 1;
    if (i0 > ilo)
        prods(L0, H0, L1, H1, gl, gh, ad + ilo, Bp + PAD + c - ilo, dx, dy, i0 - ilo, NH);
    if (i0 >= D)
        return;
    diag_rows(L0, H0, ad, Bp, c, i0, i1, D);
    if (NH == 2)
        diag_rows(L1, H1, ad + dx, Bp + dy, c, i0, i1, D);
    ++*gl, ++*gh;
}

/* (t + q m0) >> W for the q that makes t + q m0 a multiple of 2^W (ms0 =
 * m0 << (64 - W)): the low parts carry one exactly when t's are not zero. */
static inline int64_t carry_of(int64_t t, uint64_t q, uint64_t ms0)
{
    const uint64_t tl = (uint64_t)t & MW;
    return (t >> W) + (int64_t)(uint64_t)(((unsigned __int128)q * ms0) >> 64) +
           (int64_t)((tl + MW) >> W);
}

/* The four q digits of a block wholly below digit D: column k is L[k] +
 * H[k] (the high parts from one column down) plus the carry and the
 * products q_i m_j of this block's earlier digits, which stay in registers.
 * Writes the digits as doubles to qd[0..3]; returns the carry into the next
 * block. ms: m_0..m_3 << (64 - W). */
static inline __attribute__((always_inline)) int64_t
q_block(double *qd, const int64_t *L, const int64_t *H, int64_t carry, uint64_t n0,
        const uint64_t *ms)
{
    int64_t e1 = 0, e2 = 0, e3 = 0, e4 = 0;
#define QB_ADD(q, j, lo, hi)                                                  \
    do {                                                                      \
        unsigned __int128 p_ = (unsigned __int128)(q) * ms[j];                \
        lo += (int64_t)((uint64_t)p_ >> (64 - W));                            \
        hi += (int64_t)(uint64_t)(p_ >> 64);                                  \
    } while (0)
/* Digit k's q (its column: L, H, the earlier digits' products ek and the
 * carry), as a double to qd[k]. */
#define QB_DIGIT(k, ek)                                                       \
    t = L[k] + H[k] + (ek) + carry;                                           \
    q = ((uint64_t)t * n0) & MW;                                              \
    qd[k] = (double)(int64_t)q
    int64_t t;
    uint64_t q;
    QB_DIGIT(0, 0);
    QB_ADD(q, 1, e1, e2);
    QB_ADD(q, 2, e2, e3);
    QB_ADD(q, 3, e3, e4);
    carry = carry_of(t, q, ms[0]);
    QB_DIGIT(1, e1);
    QB_ADD(q, 1, e2, e3);
    QB_ADD(q, 2, e3, e4);
    carry = carry_of(t, q, ms[0]);
    QB_DIGIT(2, e2);
    QB_ADD(q, 1, e3, e4);
    carry = carry_of(t, q, ms[0]);
    QB_DIGIT(3, e3);
    return carry_of(t, q, ms[0]) + e4;
#undef QB_ADD
#undef QB_DIGIT
}


/* One number's operands in ps_core2. */
struct ps_half {
    uint64_t *r;
    const uint64_t *a, *b, *m;
    uint64_t n0;
};

/* One number's running state in ps_core2: its accumulators, its
 * chain's carry and fixes, m_0..m_3 << (64 - W), n0, and its arrays (a
 * second number's lie a fixed distance further on, see ps_core2). Passed
 * only to always-inline steps, so its fields stay in registers. */
struct ps_state {
    __m256i L, H;
    int64_t carry, fix[8];
    uint64_t ms[4], n0;
    double *ad, *qd, *Bp, *Mp;
    int64_t *Lm, *Hm; /* Hm[4 + col] */
};

/* Loads the number's digits as doubles (B = 2a when squaring) and m, and
 * clears the state. */
static inline __attribute__((always_inline)) void ps_setup(struct ps_state *s,
                                                           const struct ps_half *hv, size_t nv,
                                                           int sq)
{
    const size_t K = 4 * nv;
    const __m256d zd = _mm256_setzero_pd();
    const uint64_t *a = hv->a, *b = hv->b, *m = hv->m;
    _mm256_store_pd(s->Bp, zd);
    _mm256_store_pd(s->Mp, zd);
    _mm256_store_pd(s->Bp + PAD + K, zd);
    _mm256_store_pd(s->Mp + PAD + K, zd);
    _mm256_store_si256((__m256i *)s->Hm, _mm256_setzero_si256());
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        _mm256_store_pd(s->ad + 4 * v, to_double(_mm256_load_si256((const __m256i *)(a + 4 * v))));
        /* Squaring: B holds the doubled digits 2a_j (below 2^50, exact). */
        __m256d bv = to_double(_mm256_load_si256((const __m256i *)((sq ? a : b) + 4 * v)));
        _mm256_store_pd(s->Bp + PAD + 4 * v, sq ? _mm256_add_pd(bv, bv) : bv);
        _mm256_store_pd(s->Mp + PAD + 4 * v,
                        to_double(_mm256_load_si256((const __m256i *)(m + 4 * v))));
    }
    /* m_j << (64 - W): the high word of q times it is q m_j >> W, the low
     * word (q m_j mod 2^W) << (64 - W). */
    for (int j = 0; j < 4; j++)
        s->ms[j] = m[j] << (64 - W);
    s->n0 = hv->n0;
    s->carry = 0;
    for (int j = 0; j < 8; j++)
        s->fix[j] = 0;
    s->L = s->H = _mm256_setzero_si256();
}

/* Takes the biases off L and H (counts gl, gh) and stores them as column
 * block c. */
static inline __attribute__((always_inline)) void
ps_put(int64_t *Lm, int64_t *Hm, size_t c, __m256i L, __m256i H, size_t gl, size_t gh)
{
    L = _mm256_sub_epi64(L, _mm256_set1_epi64x((long long)(gl * bits_of(BIAS_L))));
    H = _mm256_sub_epi64(H, _mm256_set1_epi64x((long long)(gh * bits_of(BIAS_H))));
    _mm256_store_si256((__m256i *)(Lm + c), L);
    _mm256_store_si256((__m256i *)(Hm + 4 + c), H);
}

/* Block c's q digits, and their products inside the block. */
static inline __attribute__((always_inline)) void ps_qdigits(struct ps_state *s, size_t c,
                                                             size_t D)
{
    if (c + 4 <= D) {
        s->carry = q_block(s->qd + c, s->Lm + c, s->Hm + 4 + c - 1, s->carry, s->n0, s->ms);
        if (c + 4 == D)
            s->fix[0] += s->carry;
        return;
    }
    /* The block holding digit D-1 and columns above it (once). */
    int64_t ext[5] = {0, 0, 0, 0, 0};
    for (size_t k = 0; k < 4; k++) {
        const size_t col = c + k;
        const int64_t t = s->Lm[col] + s->Hm[4 + col - 1] + ext[k] + s->carry;
        if (col < D) {
            const uint64_t q = ((uint64_t)t * s->n0) & MW;
            s->qd[col] = (double)(int64_t)q;
            for (size_t j = 1; j + k < 4; j++) {
                unsigned __int128 p = (unsigned __int128)q * s->ms[j];
                ext[k + j] += (int64_t)((uint64_t)p >> (64 - W));
                ext[k + j + 1] += (int64_t)(uint64_t)(p >> 64);
            }
            s->carry = carry_of(t, q, s->ms[0]);
        } else {
            s->fix[col - D] += ext[k] + s->carry;
            s->carry = 0;
        }
    }
    s->fix[c + 4 - D] += s->carry + ext[4];
}

/* The result's digits from columns D..2D-1, normalised, zeros above. */
static inline __attribute__((always_inline)) void ps_out(uint64_t *r, const struct ps_state *s,
                                                         size_t D, size_t K)
{
    int64_t x = 0;
    for (size_t j = 0; j < D; j++) {
        const size_t col = D + j;
        int64_t t = s->Lm[col] + s->Hm[4 + col - 1] + x + (j < 8 ? s->fix[j] : 0);
        r[j] = (uint64_t)t & MW;
        x = t >> W;
    }
    for (size_t j = D; j < K; j++)
        r[j] = 0;
}

/* The size the paired product scanning is built for: RSA-2048's CRT
 * halves, 21 digits in 6 vectors (999..1048-bit moduli). Its arrays have
 * this size fixed, so they sit at constant frame offsets rather than in
 * run-time allocations whose addresses take registers (3-4% fewer cycles
 * a paired squaring than with the arrays sized at run time). */
#define PS2_NV 6
#define PS2_ND 21
#define PS2_K (4 * PS2_NV)

/* r = a*b/R' mod m (< 2m, normalised digits) for both numbers hv[0] and
 * hv[1], each of PS2_ND digits in PS2_K words. Columns are summed four at a time (block c: columns c..c+3) over
 * every product a_i b_j and q_i m_j landing there, with q_i from earlier
 * blocks; only the q digits of the block itself (a triangle of products
 * q_i m_j inside the block) are scalar. So the serial part per block is
 * four q digits, and the vector products of the next block do not wait on
 * it except for its last few rows. High parts stay in their own lanes (one
 * column up) until read; columns go to memory and the scalar parts read
 * them there. The two numbers' products share one loop (their operands a
 * fixed distance apart) and their independent q chains run side by side. Loop bounds and every branch depend on sizes only. */
static inline __attribute__((always_inline)) void
ps_core2(const struct ps_half *hv, const int sq)
{
    enum { NH = 2, K = PS2_K, KP = PS2_K + 2 * PAD, D = PS2_ND, nv = PS2_NV };
    double ad[NH * K] __attribute__((aligned(32)));
    double qd[NH * K] __attribute__((aligned(32)));
    double Bp[NH * KP] __attribute__((aligned(32)));
    double Mp[NH * KP] __attribute__((aligned(32)));
    int64_t Lm[NH * (2 * K + 8)] __attribute__((aligned(32)));
    int64_t Hm[NH * (2 * K + 12)] __attribute__((aligned(32)));
    /* Two named states rather than an array: each stays in registers. */
    struct ps_state s0 = {.ad = ad, .qd = qd, .Bp = Bp, .Mp = Mp, .Lm = Lm, .Hm = Hm};
    struct ps_state s1 = {.ad = ad + K, .qd = qd + K, .Bp = Bp + KP, .Mp = Mp + KP,
                          .Lm = Lm + 2 * K + 8, .Hm = Hm + 2 * K + 12};
    ps_setup(&s0, &hv[0], nv, sq);
    ps_setup(&s1, &hv[1], nv, sq);
    size_t gl = 0, gh = 0;
    const size_t cend = ((2 * D - 2) / 4 + 1) * 4; /* blocks up to column 2D-1 */
    /* Blocks below cl hold the columns below D (the q digits): a chain
     * through each block's scalar part. Blocks from cl on depend only on
     * finished q digits; their a*b rows are done during the low blocks, as
     * work independent of the chain (there are at most as many). */
    const size_t cl = (D + 3) & ~(size_t)3;
    ab_rows(&s0.L, &s0.H, &s1.L, &s1.H, &gl, &gh, ad, Bp, K, KP, 0, D, sq, NH);
    for (size_t c = 0; c < cl; c += 4) {
        /* Block c, last: the q rows from the previous block's digits. */
        {
            const size_t ilo = c + 1 > D ? c + 1 - D : 0, qhi = c < D ? c : D;
            const size_t lo = c >= 4 && c - 4 > ilo ? c - 4 : ilo;
            if (qhi > lo)
                prods(&s0.L, &s0.H, &s1.L, &s1.H, &gl, &gh, qd + lo, Mp + PAD + c - lo, K, KP,
                      qhi - lo, NH);
        }
        ps_put(Lm, Hm, c, s0.L, s0.H, gl, gh);
        ps_put(s1.Lm, s1.Hm, c, s1.L, s1.H, gl, gh);
        /* Block c+4 but its last q rows, ahead of block c's q digits in
         * program order: their products keep the FMA ports busy while the
         * scalar chain below runs. */
        s0.L = s0.H = s1.L = s1.H = _mm256_setzero_si256();
        gl = gh = 0;
        if (c + 4 < cl) {
            const size_t n = c + 4, ilo = n + 1 > D ? n + 1 - D : 0;
            ab_rows(&s0.L, &s0.H, &s1.L, &s1.H, &gl, &gh, ad, Bp, K, KP, n, D, sq, NH);
            if (c > ilo)
                prods(&s0.L, &s0.H, &s1.L, &s1.H, &gl, &gh, qd + ilo, Mp + PAD + n - ilo, K, KP,
                      c - ilo, NH);
        }
        ps_qdigits(&s0, c, D);
        ps_qdigits(&s1, c, D);
        /* A high block's a*b rows: more work independent of the chain. */
        if (cl + c < cend) {
            __m256i LA0 = _mm256_setzero_si256(), HA0 = LA0, LA1 = LA0, HA1 = LA0;
            size_t al = 0, ah = 0;
            ab_rows(&LA0, &HA0, &LA1, &HA1, &al, &ah, ad, Bp, K, KP, cl + c, D, sq, NH);
            ps_put(Lm, Hm, cl + c, LA0, HA0, al, ah);
            ps_put(s1.Lm, s1.Hm, cl + c, LA1, HA1, al, ah);
        }
    }
    /* High blocks: their q rows, all digits known; no chain between them. */
    for (size_t c = cl; c < cend; c += 4) {
        const size_t ilo = c + 1 - D;
        __m256i L0 = _mm256_load_si256((const __m256i *)(Lm + c));
        __m256i H0 = _mm256_load_si256((const __m256i *)(Hm + 4 + c));
        __m256i L1 = _mm256_load_si256((const __m256i *)(s1.Lm + c));
        __m256i H1 = _mm256_load_si256((const __m256i *)(s1.Hm + 4 + c));
        gl = gh = 0;
        prods(&L0, &H0, &L1, &H1, &gl, &gh, qd + ilo, Mp + PAD + c - ilo, K, KP, D - ilo, NH);
        ps_put(Lm, Hm, c, L0, H0, gl, gh);
        ps_put(s1.Lm, s1.Hm, c, L1, H1, gl, gh);
    }
    ps_out(hv[0].r, &s0, D, K);
    ps_out(hv[1].r, &s1, D, K);
}

/* The FMA kernel's paired arithmetic (fma_x2.c): halves of one word count
 * (the paired code at 21 digits, 999..1048 bits), else its prepare
 * refuses. */
extern const cs_bn_pair_ops cs_fma_pair;

#endif
