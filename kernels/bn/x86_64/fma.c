/* AVX2 + FMA kernel: 49-bit digits held exactly in doubles. Each product of
 * digits is split by FMAs against a biased constant into a high part rounded
 * to a multiple of 2^49 and an exact signed low part; both are read as
 * integers straight from the bits of the biased doubles and summed in 64-bit
 * lanes, the biases being taken off once at the end. Same column-serial
 * almost-Montgomery shape as the IFMA kernel, with a squaring that skips the
 * products below the diagonal; the scalar side reproduces the FMA's
 * round-to-nearest-even split where it stands in for vector lanes. Built
 * with -mavx2 -mfma; run only where AVX2 and FMA are present. */
#include <immintrin.h>
#include <string.h>

#include "xv.h"

/* 49 bits rather than 50 leave room for the squaring's doubled digits: a
 * doubled product and a reduction product together stay below 2^100, so one
 * biased double in [1.5*2^101 - 2^100, 1.5*2^101 + 2^100) holds both high
 * parts. The vector counts per size class are the same as with 50 bits. */
#define W 49
#define MW ((1ull << W) - 1)
#define FMA_MAX_BITS 4096

/* High parts: 1.5*2^101 has ulp 2^49; low parts: 1.5*2^52 has ulp 1. */
#define BIAS_H 0x1.8p101
#define BIAS_L 0x1.8p52
/* Their sum, exact in a double (bits 51..101): h - BIAS_HL is a high part
 * minus BIAS_L, so the FMA that takes the high part off a product leaves the
 * low part already biased for reading as an integer. */
#define BIAS_HL (BIAS_H + BIAS_L)

/* Low part of t as the FMA split leaves it: t - 2^W * RNE(t / 2^W). The
 * sign-extended low W bits round halves up; a half with an even quotient
 * goes back down. */
static inline int64_t lo_rne(unsigned __int128 t)
{
    uint64_t lo = (uint64_t)t;
    int64_t s = (int64_t)(lo << (64 - W)) >> (64 - W);
    uint64_t keep = (uint64_t)(((lo << (64 - W)) == (1ull << 63)) & ~(uint64_t)(t >> W) & 1);
    return s + (int64_t)(keep << W);
}

/* Digits (below 2^52) to doubles, exactly. */
static inline __m256d to_double(__m256i x)
{
    const __m256i bias = _mm256_set1_epi64x(0x4330000000000000ll);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, bias)),
                         _mm256_castsi256_pd(bias));
}

/* Bit patterns of the two biases: every lane of the accumulator gains one of
 * each per step (a low part, then a high part from the vector above). */
static inline uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Bias carried by lane j of K after `steps` steps: one low and one high bias a
 * step since the lane entered at the top (as zero plus a high part) or since
 * the start. Public: depends on sizes only. */
static inline uint64_t lane_bias(size_t j, size_t K, size_t steps)
{
    const uint64_t both = bits_of(BIAS_H) + bits_of(BIAS_L);
    if (steps <= K - 1 - j)
        return steps * both;
    return (K - 1 - j) * both + bits_of(BIAS_H);
}

/* Vector 0 of step i, row part: adds the unbiased low parts of A0*B into VL0
 * and returns the unbiased high parts (lane 0 is read back by the scalar). */
static inline __m256i row0(__m256i *VL0, __m256d A0, __m256d B)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H), ML = _mm256_set1_pd(BIAS_L);
    __m256d h = _mm256_fmadd_pd(A0, B, MH);
    __m256d l = _mm256_fmsub_pd(A0, B, _mm256_sub_pd(h, _mm256_set1_pd(BIAS_HL)));
    *VL0 = _mm256_add_epi64(*VL0, _mm256_sub_epi64(_mm256_castpd_si256(l), _mm256_castpd_si256(ML)));
    return _mm256_sub_epi64(_mm256_castpd_si256(h), _mm256_castpd_si256(MH));
}

/* Vector 0, reduction part, split on its own (the scalar reproduces its lane
 * 1): adds the biased low parts to VL0, returns hA plus the biased highs. */
static inline __m256i red0(__m256i *VL0, __m256i hA, __m256d M0, __m256d Q)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H);
    __m256d h = _mm256_fmadd_pd(M0, Q, MH);
    __m256d l = _mm256_fmsub_pd(M0, Q, _mm256_sub_pd(h, _mm256_set1_pd(BIAS_HL)));
    *VL0 = _mm256_add_epi64(*VL0, _mm256_castpd_si256(l));
    return _mm256_add_epi64(hA, _mm256_castpd_si256(h));
}

/* Both products of one vector: the reduction product is rounded on top of the
 * row's high part, so one biased double carries both high parts and one the
 * sum of both (exact) low parts. Returns the biased highs; adds the biased
 * lows to *VL. */
static inline __m256i both(__m256i *VL, __m256d A, __m256d B, __m256d Mv, __m256d Q)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H);
    __m256d ha = _mm256_fmadd_pd(A, B, MH);
    __m256d hs = _mm256_fmadd_pd(Mv, Q, ha);
    __m256d la = _mm256_fmsub_pd(A, B, _mm256_sub_pd(ha, _mm256_set1_pd(BIAS_HL)));
    __m256d lm = _mm256_fmsub_pd(Mv, Q, _mm256_sub_pd(hs, ha));
    __m256d l = _mm256_add_pd(la, lm);
    *VL = _mm256_add_epi64(*VL, _mm256_castpd_si256(l));
    return _mm256_castpd_si256(hs);
}

/* The reduction product alone (rows of the squaring below the diagonal). */
static inline __m256i red_only(__m256i *VL, __m256d Mv, __m256d Q)
{
    const __m256d MH = _mm256_set1_pd(BIAS_H);
    __m256d h = _mm256_fmadd_pd(Mv, Q, MH);
    __m256d l = _mm256_fmsub_pd(Mv, Q, _mm256_sub_pd(h, _mm256_set1_pd(BIAS_HL)));
    *VL = _mm256_add_epi64(*VL, _mm256_castpd_si256(l));
    return _mm256_castpd_si256(h);
}

/* Shifts the accumulator down a lane across vectors v-1 and v: rprev is
 * vector v-1 rotated, the result takes vector v's lowest lane on top. */
static inline __m256i shift_in(__m256i rprev, __m256i rv, __m256i hprev)
{
    return _mm256_add_epi64(_mm256_blend_epi32(rprev, rv, 0xC0), hprev);
}

/* Carries the final lanes (biases off, t[0] the scalar column) into
 * normalised digits. */
static inline void finish(uint64_t *r, const __m256i *VL, int64_t x, size_t nv, size_t iters)
{
    int64_t t[4 * nv] __attribute__((aligned(32)));
    for (size_t v = 0; v < nv; v++)
        _mm256_store_si256((__m256i *)(t + 4 * v), VL[v]);
    t[0] = x;
    int64_t c = 0;
    for (size_t j = 0; j < 4 * nv; j++) {
        int64_t s = (int64_t)((uint64_t)t[j] - (j ? lane_bias(j, 4 * nv, iters) : 0)) + c;
        r[j] = (uint64_t)s & MW;
        c = s >> W; /* arithmetic: columns may be negative on the way */
    }
}

/* Scalar side of a step: q from the current column x, and the carry of
 * x + m0*q (a multiple of 2^W; the vectors' share of it lands in lanes never
 * read back, so its quotient is added here whole). */
#define STEP_Q(x, n0, m0, q, cq)                                                  \
    const uint64_t q = ((uint64_t)(x) * (n0)) & MW;                               \
    const int64_t cq = (int64_t)(((__int128)(x) + (__int128)((unsigned __int128)(m0) * q)) >> W)

/* r = a*b/R' mod m (< 2m, normalised W-bit digits), K = 4*nv digits. */
static inline __attribute__((always_inline)) void
amm_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
         uint64_t n0, const size_t nv, const size_t iters)
{
    __m256d A[nv], Mv[nv];
    __m256i VL[nv];
    const __m256i zero = _mm256_setzero_si256();
    const uint64_t both_bias = bits_of(BIAS_H) + bits_of(BIAS_L), K = 4 * nv;
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        A[v] = to_double(_mm256_load_si256((const __m256i *)(a + 4 * v)));
        Mv[v] = to_double(_mm256_load_si256((const __m256i *)(m + 4 * v)));
        VL[v] = zero;
    }
    const uint64_t a0 = a[0], m0 = m[0], m1 = m[1];
    int64_t x = lo_rne((unsigned __int128)a0 * b[0]); /* column 0 */
    uint64_t ybias = 0; /* lane 1's bias at this step */
    for (size_t i = 0; i < iters; i++) {
        STEP_Q(x, n0, m0, q, cq);
        /* Signed conversions: one instruction, no branch on the value. */
        const __m256d B = _mm256_set1_pd((double)(int64_t)b[i]);
        const __m256d Q = _mm256_set1_pd((double)(int64_t)q);
        /* Column i+1 is read after row i's products, before q's. */
        __m256i hprev = row0(&VL[0], A[0], B);
        const int64_t y = (int64_t)((uint64_t)_mm256_extract_epi64(VL[0], 1) - ybias) +
                          _mm256_extract_epi64(hprev, 0);
        hprev = red0(&VL[0], hprev, Mv[0], Q);
        __m256i rprev = _mm256_permute4x64_epi64(VL[0], 0x39); /* lanes 1,2,3,0 */
#pragma GCC unroll 32
        for (size_t v = 1; v < nv; v++) {
            __m256i hv = both(&VL[v], A[v], B, Mv[v], Q);
            __m256i rv = _mm256_permute4x64_epi64(VL[v], 0x39);
            VL[v - 1] = shift_in(rprev, rv, hprev);
            rprev = rv;
            hprev = hv;
        }
        VL[nv - 1] = shift_in(rprev, zero, hprev);
        ybias = i + 1 <= K - 2 ? ybias + both_bias : (K - 2) * both_bias + bits_of(BIAS_H);
        const uint64_t bn = i + 1 < iters ? b[i + 1] : 0;
        x = y + cq + lo_rne((unsigned __int128)m1 * q) + lo_rne((unsigned __int128)a0 * bn);
    }
    finish(r, VL, x, nv, iters);
}

/* r = a*a/R' mod m like amm_core, but row i multiplies a_i only by the digits
 * a_x, x >= i: the diagonal once, the others by 2a_i (exact in a double).
 * Vectors wholly below row i's start get only the reduction product. */
static inline __attribute__((always_inline)) void
asqr_core(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0, const size_t nv,
          const size_t iters)
{
    __m256d A[nv], Mv[nv];
    __m256i VL[nv];
    const __m256i zero = _mm256_setzero_si256();
    const uint64_t both_bias = bits_of(BIAS_H) + bits_of(BIAS_L), K = 4 * nv;
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        A[v] = to_double(_mm256_load_si256((const __m256i *)(a + 4 * v)));
        Mv[v] = to_double(_mm256_load_si256((const __m256i *)(m + 4 * v)));
        VL[v] = zero;
    }
    const uint64_t m0 = m[0], m1 = m[1];
    const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
    int64_t x = lo_rne((unsigned __int128)a[0] * a[0]); /* column 0 */
    uint64_t ybias = 0;
    for (size_t i = 0; i < iters; i++) {
        STEP_Q(x, n0, m0, q, cq);
        const size_t u = i / 4;
        const int64_t ai = (int64_t)a[i];
        const __m256d D = _mm256_set1_pd((double)(2 * ai));
        /* Vector u: lanes below i%4 done by earlier rows, the diagonal lane
         * once, lanes above doubled. Positions are public. */
        const __m256i s = _mm256_set1_epi64x((long long)(i % 4));
        const __m256d Bu = _mm256_or_pd(
            _mm256_and_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(lane, s)), D),
            _mm256_and_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(lane, s)),
                          _mm256_set1_pd((double)ai)));
        const __m256d Q = _mm256_set1_pd((double)(int64_t)q);
        __m256i hprev = zero;
        int64_t y = (int64_t)((uint64_t)_mm256_extract_epi64(VL[0], 1) - ybias);
        if (u == 0) { /* public: the step number */
            hprev = row0(&VL[0], A[0], Bu);
            y = (int64_t)((uint64_t)_mm256_extract_epi64(VL[0], 1) - ybias) +
                _mm256_extract_epi64(hprev, 0);
        }
        hprev = red0(&VL[0], hprev, Mv[0], Q);
        __m256i rprev = _mm256_permute4x64_epi64(VL[0], 0x39);
        /* Three runs of vectors: below row i's start, its first vector, the
         * rest; run-time bounds keep the code small. */
        size_t v = 1;
        for (; v < u; v++) {
            __m256i hv = red_only(&VL[v], Mv[v], Q);
            __m256i rv = _mm256_permute4x64_epi64(VL[v], 0x39);
            VL[v - 1] = shift_in(rprev, rv, hprev);
            rprev = rv;
            hprev = hv;
        }
        if (v == u) {
            __m256i hv = both(&VL[v], A[v], Bu, Mv[v], Q);
            __m256i rv = _mm256_permute4x64_epi64(VL[v], 0x39);
            VL[v - 1] = shift_in(rprev, rv, hprev);
            rprev = rv;
            hprev = hv;
            v++;
        }
        for (; v < nv; v++) {
            __m256i hv = both(&VL[v], A[v], D, Mv[v], Q);
            __m256i rv = _mm256_permute4x64_epi64(VL[v], 0x39);
            VL[v - 1] = shift_in(rprev, rv, hprev);
            rprev = rv;
            hprev = hv;
        }
        VL[nv - 1] = shift_in(rprev, zero, hprev);
        ybias = i + 1 <= K - 2 ? ybias + both_bias : (K - 2) * both_bias + bits_of(BIAS_H);
        x = y + cq + lo_rne((unsigned __int128)m1 * q);
    }
    finish(r, VL, x, nv, iters);
}

#define AMM_FIXED(NV)                                                                      \
    static void amm_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        amm_core(r, a, b, c->m, c->n0, NV, c->iters);                                     \
    }
#define ASQR_FIXED(NV)                                                                      \
    static void asqr_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                       \
        const cs_bn_prep *c = ctx;                                                          \
        asqr_core(r, a, c->m, c->n0, NV, c->iters);                                         \
    }
/* Measured (in-process A/B, full-length secret exponents): at 1024 and
 * 1536 bits the squaring's three loops cost more than the products they
 * save (exponentiation 3-9% slower than squaring with amm), so those sizes
 * square with the multiplication; from 2048 bits up it is level or ahead. */
AMM_FIXED(6)   /* 1024 bits: 21 digits */
AMM_FIXED(8)   /* 1536: 32 */
AMM_FIXED(11)  /* 2048: 42 */
AMM_FIXED(16)  /* 3072: 63 */
AMM_FIXED(21)  /* 4096: 84 */
ASQR_FIXED(11)
ASQR_FIXED(16)
ASQR_FIXED(21)

/* Any other size: the same code with a run-time vector count. */
static void amm_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    amm_core(r, a, b, c->m, c->n0, c->words / 4, c->iters);
}

static void asqr_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    asqr_core(r, a, c->m, c->n0, c->words / 4, c->iters);
}

/* Sets up c for mont with the multiplication specialised to its size. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, W, amm_any, asqr_any))
        return -1;
    switch (c->words / 4) {
    case 6: c->mul = c->sqr = amm_6; break;
    case 8: c->mul = c->sqr = amm_8; break;
    case 11: c->mul = amm_11; c->sqr = asqr_11; break;
    case 16: c->mul = amm_16; c->sqr = asqr_16; break;
    case 21: c->mul = amm_21; c->sqr = asqr_21; break;
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
