/* AVX2 + FMA kernel: 50-bit digits held exactly in doubles. Each product of
 * digits is split by FMAs against a biased constant into a high part rounded
 * to a multiple of 2^50 and an exact signed low part; both are read as
 * integers straight from the bits of the biased doubles and summed in 64-bit
 * lanes, the biases being taken off once at the end. Almost-Montgomery
 * product scanning by blocks of four columns (ps_core): aligned
 * accumulators, a squaring with each cross product once, only four q digits
 * a block scalar. (The column-serial shape it replaced was level at 1024 bits
 * and behind from 1536 once digits were 50 bits wide: docs/benchmarks.md.)
 * Built with -mavx2 -mfma; run only where AVX2 and FMA are present. */
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
 * read as unaligned vectors going down), in pairs; counts the biases
 * added to each lane of L and of H into *gl and *gh. */
static inline __attribute__((always_inline)) void
prods(__m256i *L, __m256i *H, size_t *gl, size_t *gh, const double *x, const double *y, size_t n)
{
    const size_t np = n / 2;
#pragma GCC unroll 4
    for (size_t k = 0; k < np; k++)
        pair(L, H, _mm256_broadcast_sd(x + 2 * k), _mm256_loadu_pd(y - 2 * k),
             _mm256_broadcast_sd(x + 2 * k + 1), _mm256_loadu_pd(y - 2 * k - 1));
    *gl += np, *gh += np, x += 2 * np, y -= 2 * np, n -= 2 * np;
    for (; n >= 2; n -= 2, x += 2, y -= 2, ++*gl, ++*gh)
        pair(L, H, _mm256_broadcast_sd(x), _mm256_loadu_pd(y), _mm256_broadcast_sd(x + 1),
             _mm256_loadu_pd(y - 1));
    if (n) {
        single(L, H, _mm256_broadcast_sd(x), _mm256_loadu_pd(y));
        ++*gl, ++*gh;
    }
}

/* Block c's a*b rows: a_i times B[c-i..c-i+3] for every row meeting
 * columns c..c+3. Squaring (sq, B = 2a): only the rows at or above the
 * diagonal, row c/2 with its square in lane 0, row c/2+1 with its square
 * in lane 2 and its lanes 0-1 (below the diagonal) zero. */
static inline __attribute__((always_inline)) void
ab_rows(__m256i *L, __m256i *H, size_t *gl, size_t *gh, const double *ad, const double *Bp,
        size_t c, size_t D, int sq)
{
    const size_t ilo = c + 1 > D ? c + 1 - D : 0, ihi = c + 3 < D - 1 ? c + 3 : D - 1;
    if (!sq) {
        prods(L, H, gl, gh, ad + ilo, Bp + PAD + c - ilo, ihi + 1 - ilo);
        return;
    }
    const size_t i0 = c / 2, i1 = c / 2 + 1;
    if (i0 > ilo)
        prods(L, H, gl, gh, ad + ilo, Bp + PAD + c - ilo, i0 - ilo);
    if (i0 >= D)
        return;
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
    int64_t t = L[0] + H[0] + carry;
    uint64_t q = ((uint64_t)t * n0) & MW;
    qd[0] = (double)(int64_t)q;
    QB_ADD(q, 1, e1, e2);
    QB_ADD(q, 2, e2, e3);
    QB_ADD(q, 3, e3, e4);
    carry = carry_of(t, q, ms[0]);
    t = L[1] + H[1] + e1 + carry;
    q = ((uint64_t)t * n0) & MW;
    qd[1] = (double)(int64_t)q;
    QB_ADD(q, 1, e2, e3);
    QB_ADD(q, 2, e3, e4);
    carry = carry_of(t, q, ms[0]);
    t = L[2] + H[2] + e2 + carry;
    q = ((uint64_t)t * n0) & MW;
    qd[2] = (double)(int64_t)q;
    QB_ADD(q, 1, e3, e4);
    carry = carry_of(t, q, ms[0]);
    t = L[3] + H[3] + e3 + carry;
    q = ((uint64_t)t * n0) & MW;
    qd[3] = (double)(int64_t)q;
    return carry_of(t, q, ms[0]) + e4;
#undef QB_ADD
}

/* r = a*b/R' mod m (< 2m, normalised digits), D = iters digits in 4*nv
 * words. Columns are summed four at a time (block c: columns c..c+3) over
 * every product a_i b_j and q_i m_j landing there, with q_i from earlier
 * blocks; only the q digits of the block itself (a triangle of products
 * q_i m_j inside the block) are scalar. So the serial part per block is
 * four q digits, and the vector products of the next block do not wait on
 * it except for its last few rows. High parts stay in their own lanes (one
 * column up) until read; columns go to memory and the scalar parts read
 * them there. Loop bounds and every branch depend on sizes only. */
static inline __attribute__((always_inline)) void
ps_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t n0,
        const size_t nv, const size_t D, const int sq)
{
    const size_t K = 4 * nv;
    double ad[K] __attribute__((aligned(32)));
    double qd[K] __attribute__((aligned(32)));
    double Bp[K + 2 * PAD] __attribute__((aligned(32)));
    double Mp[K + 2 * PAD] __attribute__((aligned(32)));
    int64_t Lm[2 * K + 8] __attribute__((aligned(32)));
    int64_t Hm[2 * K + 12] __attribute__((aligned(32))); /* Hm[4 + col] */
    const __m256d zd = _mm256_setzero_pd();
    _mm256_store_pd(Bp, zd);
    _mm256_store_pd(Mp, zd);
    _mm256_store_pd(Bp + PAD + K, zd);
    _mm256_store_pd(Mp + PAD + K, zd);
    _mm256_store_si256((__m256i *)Hm, _mm256_setzero_si256());
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        _mm256_store_pd(ad + 4 * v, to_double(_mm256_load_si256((const __m256i *)(a + 4 * v))));
        /* Squaring: B holds the doubled digits 2a_j (below 2^50, exact). */
        __m256d bv = to_double(_mm256_load_si256((const __m256i *)((sq ? a : b) + 4 * v)));
        _mm256_store_pd(Bp + PAD + 4 * v, sq ? _mm256_add_pd(bv, bv) : bv);
        _mm256_store_pd(Mp + PAD + 4 * v,
                        to_double(_mm256_load_si256((const __m256i *)(m + 4 * v))));
    }
    /* m_j << (64 - W): the high word of q times it is q m_j >> W, the low
     * word (q m_j mod 2^W) << (64 - W). */
    const uint64_t ms[4] = {m[0] << (64 - W), m[1] << (64 - W), m[2] << (64 - W),
                            m[3] << (64 - W)};
    const size_t cend = ((2 * D - 2) / 4 + 1) * 4; /* blocks up to column 2D-1 */
    int64_t carry = 0, fix[8] = {0};
    /* Blocks below cl hold the columns below D (the q digits): a chain
     * through each block's scalar part. Blocks from cl on depend only on
     * finished q digits; their a*b rows are done during the low blocks, as
     * work independent of the chain (there are at most as many). */
    const size_t cl = (D + 3) & ~(size_t)3;
    __m256i L = _mm256_setzero_si256(), H = _mm256_setzero_si256();
    size_t gl = 0, gh = 0;
    ab_rows(&L, &H, &gl, &gh, ad, Bp, 0, D, sq);
    for (size_t c = 0; c < cl; c += 4) {
        /* Block c, last: the q rows from the previous block's digits. */
        {
            const size_t ilo = c + 1 > D ? c + 1 - D : 0, qhi = c < D ? c : D;
            const size_t lo = c >= 4 && c - 4 > ilo ? c - 4 : ilo;
            if (qhi > lo)
                prods(&L, &H, &gl, &gh, qd + lo, Mp + PAD + c - lo, qhi - lo);
        }
        L = _mm256_sub_epi64(L, _mm256_set1_epi64x((long long)(gl * bits_of(BIAS_L))));
        H = _mm256_sub_epi64(H, _mm256_set1_epi64x((long long)(gh * bits_of(BIAS_H))));
        _mm256_store_si256((__m256i *)(Lm + c), L);
        _mm256_store_si256((__m256i *)(Hm + 4 + c), H);
        /* Block c+4 but its last q rows, and a high block's a*b rows, ahead
         * of block c's q digits in program order: their products keep the
         * FMA ports busy while the scalar chain below runs. */
        L = H = _mm256_setzero_si256();
        gl = gh = 0;
        if (c + 4 < cl) {
            const size_t n = c + 4, ilo = n + 1 > D ? n + 1 - D : 0;
            ab_rows(&L, &H, &gl, &gh, ad, Bp, n, D, sq);
            if (c > ilo)
                prods(&L, &H, &gl, &gh, qd + ilo, Mp + PAD + n - ilo, c - ilo);
        }
        /* Block c's q digits, and their products inside the block. */
        if (c + 4 <= D) {
            carry = q_block(qd + c, Lm + c, Hm + 4 + c - 1, carry, n0, ms);
            if (c + 4 == D)
                fix[0] += carry;
        } else {
            /* The block holding digit D-1 and columns above it (once). */
            int64_t ext[5] = {0, 0, 0, 0, 0};
            for (size_t k = 0; k < 4; k++) {
                const size_t col = c + k;
                const int64_t t = Lm[col] + Hm[4 + col - 1] + ext[k] + carry;
                if (col < D) {
                    const uint64_t q = ((uint64_t)t * n0) & MW;
                    qd[col] = (double)(int64_t)q;
                    for (size_t j = 1; j + k < 4; j++) {
                        unsigned __int128 p = (unsigned __int128)q * ms[j];
                        ext[k + j] += (int64_t)((uint64_t)p >> (64 - W));
                        ext[k + j + 1] += (int64_t)(uint64_t)(p >> 64);
                    }
                    carry = carry_of(t, q, ms[0]);
                } else {
                    fix[col - D] += ext[k] + carry;
                    carry = 0;
                }
            }
            fix[c + 4 - D] += carry + ext[4];
        }
        /* A high block's a*b rows: more work independent of the chain. */
        if (cl + c < cend) {
            __m256i LA = _mm256_setzero_si256(), HA = _mm256_setzero_si256();
            size_t al = 0, ah = 0;
            ab_rows(&LA, &HA, &al, &ah, ad, Bp, cl + c, D, sq);
            LA = _mm256_sub_epi64(LA, _mm256_set1_epi64x((long long)(al * bits_of(BIAS_L))));
            HA = _mm256_sub_epi64(HA, _mm256_set1_epi64x((long long)(ah * bits_of(BIAS_H))));
            _mm256_store_si256((__m256i *)(Lm + cl + c), LA);
            _mm256_store_si256((__m256i *)(Hm + 4 + cl + c), HA);
        }
    }
    /* High blocks: their q rows, all digits known; no chain between them. */
    for (size_t c = cl; c < cend; c += 4) {
        const size_t ilo = c + 1 - D;
        L = _mm256_load_si256((const __m256i *)(Lm + c));
        H = _mm256_load_si256((const __m256i *)(Hm + 4 + c));
        gl = gh = 0;
        prods(&L, &H, &gl, &gh, qd + ilo, Mp + PAD + c - ilo, D - ilo);
        L = _mm256_sub_epi64(L, _mm256_set1_epi64x((long long)(gl * bits_of(BIAS_L))));
        H = _mm256_sub_epi64(H, _mm256_set1_epi64x((long long)(gh * bits_of(BIAS_H))));
        _mm256_store_si256((__m256i *)(Lm + c), L);
        _mm256_store_si256((__m256i *)(Hm + 4 + c), H);
    }
    int64_t x = 0;
    for (size_t j = 0; j < D; j++) {
        const size_t col = D + j;
        int64_t t = Lm[col] + Hm[4 + col - 1] + x + (j < 8 ? fix[j] : 0);
        r[j] = (uint64_t)t & MW;
        x = t >> W;
    }
    for (size_t j = D; j < K; j++)
        r[j] = 0;
}

/* The squaring and the multiplication specialised to NV vectors, and to D
 * digits too where D is an expression of constants (with D fixed every
 * block's row ranges fold: 4-5% fewer cycles at 2048 bits, docs). */
#define PS_FIXED(TAG, NV, D)                                                               \
    static void pq_##TAG(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        ps_core(r, a, a, c->m, c->n0, NV, D, 1);                                          \
    }                                                                                      \
    static void ps_##TAG(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        ps_core(r, a, b, c->m, c->n0, NV, D, 0);                                          \
    }
/* The digit counts of 1024-, 1536-, 2048-, 3072- and 4096-bit moduli (and
 * of those up to 49 bits shorter), the sizes RSA, DH and DSA use. */
PS_FIXED(6_21, 6, 21)
PS_FIXED(8_31, 8, 31)
PS_FIXED(11_41, 11, 41)
PS_FIXED(16_62, 16, 62)
PS_FIXED(21_82, 21, 82)
/* Other moduli of those vector counts. */
PS_FIXED(6, 6, c->iters)
PS_FIXED(8, 8, c->iters)
PS_FIXED(11, 11, c->iters)
PS_FIXED(16, 16, c->iters)
PS_FIXED(21, 21, c->iters)

/* The specialised pairs, the first match taken: nv vectors and d digits
 * (0: any). */
static const struct {
    size_t nv, d;
    cs_bn_mul_fn *mul, *sqr;
} fixed[] = {
    {6, 21, ps_6_21, pq_6_21},    {8, 31, ps_8_31, pq_8_31},    {11, 41, ps_11_41, pq_11_41},
    {16, 62, ps_16_62, pq_16_62}, {21, 82, ps_21_82, pq_21_82}, {6, 0, ps_6, pq_6},
    {8, 0, ps_8, pq_8},           {11, 0, ps_11, pq_11},        {16, 0, ps_16, pq_16},
    {21, 0, ps_21, pq_21},
};

/* Any other size: product scanning with a run-time vector count. */
static void ps_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    ps_core(r, a, b, c->m, c->n0, c->words / 4, c->iters, 0);
}

static void pq_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    ps_core(r, a, a, c->m, c->n0, c->words / 4, c->iters, 1);
}

/* Sets up c for mont with the multiplication specialised to its size. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, W, ps_any, pq_any))
        return -1;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (fixed[i].nv == c->words / 4 && (!fixed[i].d || fixed[i].d == c->iters)) {
            c->mul = fixed[i].mul, c->sqr = fixed[i].sqr;
            break;
        }
    c->select = xv_select_avx2;
    return 0;
}

static const cs_bn_ops ops = {
    .prepare = prepare,
    .load = xv_load,
    .store = xv_store,
    .pair = NULL,
};

CS_BN_KERNEL(cs_bn_x86_fma, "x86_64-fma", CS_CPU_AVX2 | CS_CPU_FMA, 512, FMA_MAX_BITS, ops, 1, 0);
