/* AVX2 + FMA kernel: 50-bit digits held exactly in doubles. Each 50x50-bit
 * product is split by two FMAs into a high part rounded to a multiple of
 * 2^50 and an exact signed low part (|lo| <= 2^49); both are turned into
 * integers by the bits of a double biased into [2^52, 2^53) (or [2^102,
 * 2^103) for the high part) and summed in 64-bit lanes. Same column-serial
 * almost-Montgomery shape as the IFMA kernel; the scalar side reproduces the
 * FMA's round-to-nearest-even split where it stands in for vector lanes.
 * Built with -mavx2 -mfma; run only where AVX2 and FMA are present. */
#include <immintrin.h>
#include <string.h>

#include "xv.h"

#define W 50
#define M50 ((1ull << W) - 1)
#define FMA_MAX_BITS 4096

/* Low part of t as the FMA split leaves it: t - 2^50 * RNE(t / 2^50). */
static inline int64_t lo_rne(unsigned __int128 t)
{
    uint64_t r = (uint64_t)t & M50, h = (uint64_t)(t >> W);
    uint64_t up = (uint64_t)(r > (1ull << (W - 1))) | ((uint64_t)(r == (1ull << (W - 1))) & h & 1);
    return (int64_t)r - (int64_t)(up << W);
}

/* Digits (below 2^52) to doubles, exactly. */
static inline __m256d to_double(__m256i x)
{
    const __m256i bias = _mm256_set1_epi64x(0x4330000000000000ll);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, bias)),
                         _mm256_castsi256_pd(bias));
}

/* r = a*b/R' mod m (< 2m, normalised 50-bit digits), K = 4*nv digits. */
static inline __attribute__((always_inline)) void
amm_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
         uint64_t n0, const size_t nv, const size_t iters)
{
    __m256d A[nv], Mv[nv];
    __m256i VL[nv];
    const __m256i zero = _mm256_setzero_si256();
    const __m256d MH = _mm256_set1_pd(0x1.8p102), ML = _mm256_set1_pd(0x1.8p52);
    const __m256i CH = _mm256_castpd_si256(MH), CL = _mm256_castpd_si256(ML);
    const __m256i CH2 = _mm256_add_epi64(CH, CH), CL2 = _mm256_add_epi64(CL, CL);
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        A[v] = to_double(_mm256_load_si256((const __m256i *)(a + 4 * v)));
        Mv[v] = to_double(_mm256_load_si256((const __m256i *)(m + 4 * v)));
        VL[v] = zero;
    }
    const uint64_t a0 = a[0], m0 = m[0], m1 = m[1];
    int64_t x = lo_rne((unsigned __int128)a0 * b[0]); /* column 0 */
    for (size_t i = 0; i < iters; i++) {
        const uint64_t q = ((uint64_t)x * n0) & M50;
        /* x + m0*q is a multiple of 2^50; the vectors' share of it lands in
         * lanes never read back, so its quotient is added here whole. */
        const int64_t cq = (int64_t)(((__int128)x + (__int128)((unsigned __int128)m0 * q)) >> W);
        /* Signed conversions: one instruction, no branch on the value. */
        const __m256d B = _mm256_set1_pd((double)(int64_t)b[i]);
        const __m256d Q = _mm256_set1_pd((double)(int64_t)q);
        /* Vector 0: row i's products, then column i+1 is read, then q's. */
        __m256i hprev;
        {
            __m256d h = _mm256_fmadd_pd(A[0], B, MH);
            __m256d l = _mm256_add_pd(_mm256_fmsub_pd(A[0], B, _mm256_sub_pd(h, MH)), ML);
            hprev = _mm256_sub_epi64(_mm256_castpd_si256(h), CH);
            VL[0] = _mm256_add_epi64(VL[0], _mm256_sub_epi64(_mm256_castpd_si256(l), CL));
        }
        const int64_t y = _mm256_extract_epi64(VL[0], 1) + _mm256_extract_epi64(hprev, 0);
        {
            __m256d h = _mm256_fmadd_pd(Mv[0], Q, MH);
            __m256d l = _mm256_add_pd(_mm256_fmsub_pd(Mv[0], Q, _mm256_sub_pd(h, MH)), ML);
            hprev = _mm256_add_epi64(hprev, _mm256_sub_epi64(_mm256_castpd_si256(h), CH));
            VL[0] = _mm256_add_epi64(VL[0], _mm256_sub_epi64(_mm256_castpd_si256(l), CL));
        }
        /* Other vectors: both products, then the one below is shifted down a
         * lane (taking this one's lowest) and gets its high parts. Only VL
         * lives across steps, which keeps the registers for it. */
        __m256i rprev = _mm256_permute4x64_epi64(VL[0], 0x39); /* lanes 1,2,3,0 */
#pragma GCC unroll 32
        for (size_t v = 1; v < nv; v++) {
            __m256d ha = _mm256_fmadd_pd(A[v], B, MH);
            __m256d la = _mm256_add_pd(_mm256_fmsub_pd(A[v], B, _mm256_sub_pd(ha, MH)), ML);
            __m256d hm = _mm256_fmadd_pd(Mv[v], Q, MH);
            __m256d lm = _mm256_add_pd(_mm256_fmsub_pd(Mv[v], Q, _mm256_sub_pd(hm, MH)), ML);
            __m256i hv = _mm256_add_epi64(_mm256_castpd_si256(ha), _mm256_castpd_si256(hm));
            __m256i lv = _mm256_add_epi64(_mm256_castpd_si256(la), _mm256_castpd_si256(lm));
            hv = _mm256_sub_epi64(hv, CH2);
            VL[v] = _mm256_add_epi64(VL[v], _mm256_sub_epi64(lv, CL2));
            __m256i rv = _mm256_permute4x64_epi64(VL[v], 0x39);
            VL[v - 1] = _mm256_add_epi64(_mm256_blend_epi32(rprev, rv, 0xC0), hprev);
            rprev = rv;
            hprev = hv;
        }
        VL[nv - 1] = _mm256_add_epi64(_mm256_blend_epi32(rprev, zero, 0xC0), hprev);
        const uint64_t bn = i + 1 < iters ? b[i + 1] : 0;
        x = y + cq + lo_rne((unsigned __int128)m1 * q) + lo_rne((unsigned __int128)a0 * bn);
    }
    int64_t t[4 * nv] __attribute__((aligned(32)));
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++)
        _mm256_store_si256((__m256i *)(t + 4 * v), VL[v]);
    t[0] = x;
    int64_t c = 0;
    for (size_t j = 0; j < 4 * nv; j++) {
        int64_t s = t[j] + c;
        r[j] = (uint64_t)s & M50;
        c = s >> W; /* arithmetic: columns may be negative on the way */
    }
}

#define AMM_FIXED(NV)                                                                      \
    static void amm_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const xv_ctx *c) \
    {                                                                                      \
        amm_core(r, a, b, c->m, c->n0, NV, c->iters);                                     \
    }
AMM_FIXED(6)   /* 1024 bits: 21 digits */
AMM_FIXED(8)   /* 1536: 31 */
AMM_FIXED(11)  /* 2048: 41 */
AMM_FIXED(16)  /* 3072: 62 */
AMM_FIXED(21)  /* 4096: 82 */

/* Any other size: the same code with a run-time vector count. */
static void amm_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const xv_ctx *c)
{
    amm_core(r, a, b, c->m, c->n0, c->K / 4, c->iters);
}

/* Sets up c for mont with the multiplication specialised to its size. */
static int setup(xv_ctx *c, const cs_mont *mont)
{
    if (mont->bits > FMA_MAX_BITS || mont->bits < 512 || xv_setup(c, mont, W, amm_any, amm_any))
        return -1;
    xv_amm_fn *f = amm_any;
    switch (c->K / 4) {
    case 6: f = amm_6; break;
    case 8: f = amm_8; break;
    case 11: f = amm_11; break;
    case 16: f = amm_16; break;
    case 21: f = amm_21; break;
    }
    c->amm = c->asqr = f;
    c->select = xv_select_avx2;
    return 0;
}

XV_KERNEL_ENTRIES(fma, setup)

const cs_bn_kernel cs_bn_x86_fma = {
    .name = "x86_64-fma",
    .cpu_features = CS_CPU_AVX2 | CS_CPU_FMA,
    .min_bits = 512,
    .max_bits = FMA_MAX_BITS,
    .mont_mul = fma_mont_mul,
    .mont_sqr = fma_mont_sqr,
    .exp = fma_exp,
};
