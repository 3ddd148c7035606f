/* AVX-512 IFMA kernel: 52-bit digits, almost-Montgomery multiplication with
 * vpmadd52luq/vpmadd52huq on 256-bit vectors (AVX-512VL). Zen 4 runs 512-bit
 * operations as two 256-bit halves, so the narrow form loses nothing there
 * and keeps the lane shuffles cheap. Built with IFMA flags (mk/kernels_bn.mk);
 * only called when the CPU has AVX512IFMA. */
#include "x86_kernels.h"
#include "xv_amm.h"

#define M52 ((1ull << 52) - 1)

/* High 52 bits of a product of two 52-bit digits. */
static inline uint64_t hi52(unsigned __int128 p) { return (uint64_t)(p >> 52); }

/* Column-serial Montgomery over b's digits. The vectors hold every product;
 * only the current column (whose low 52 bits give q) is followed in a scalar
 * register. Column i+1 is read from the vectors before q_i's products land
 * and q_i's two products into it are added in scalar, so the q chain waits on
 * two scalar multiplications per step, never on a vector round trip. The
 * vectors' lowest lane is never read back: the scalar carries it. */
static inline __attribute__((always_inline)) void
amm_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
         uint64_t n0, const size_t nv, const size_t iters)
{
    __m256i A[nv], Mv[nv], VL[nv], VH[nv];
    const __m256i zero = _mm256_setzero_si256();
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        A[v] = _mm256_load_si256((const __m256i *)(a + 4 * v));
        Mv[v] = _mm256_load_si256((const __m256i *)(m + 4 * v));
        VL[v] = zero;
    }
    const uint64_t a0 = a[0], m0 = m[0], m1 = m[1];
    const size_t K = 4 * nv;
    uint64_t x = (a0 * b[0]) & M52; /* column 0 */
    for (size_t i = 0; i < iters; i++) {
        const uint64_t q = (x * n0) & M52;
        /* x + lo52(m0*q) is a multiple of 2^52: its carry is ceil(x/2^52). */
        const uint64_t c = (x + M52) >> 52;
        const __m256i B = _mm256_set1_epi64x((long long)b[i]);
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++) {
            VL[v] = _mm256_madd52lo_epu64(VL[v], A[v], B);
            VH[v] = _mm256_madd52hi_epu64(zero, A[v], B);
        }
        uint64_t y = (uint64_t)_mm256_extract_epi64(VL[0], 1) +
                     (uint64_t)_mm256_extract_epi64(VH[0], 0);
        const __m256i Q = _mm256_set1_epi64x((long long)q);
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++) {
            VL[v] = _mm256_madd52lo_epu64(VL[v], Mv[v], Q);
            VH[v] = _mm256_madd52hi_epu64(VH[v], Mv[v], Q);
        }
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++) {
            __m256i next = v + 1 < nv ? VL[v + 1] : zero;
            VL[v] = _mm256_add_epi64(_mm256_alignr_epi64(next, VL[v], 1), VH[v]);
        }
        const uint64_t bn = i + 1 < iters ? b[i + 1] : 0;
        x = y + c + hi52((unsigned __int128)m0 * q) + ((m1 * q) & M52) + ((a0 * bn) & M52);
    }
    uint64_t t[4 * nv] __attribute__((aligned(32)));
    xv_amm_carry(r, t, VL, x, nv, K, 52);
}

/* Squaring in the same shape as amm_core: row i multiplies a_i only by the
 * digits a_x, x >= i, the diagonal once and the rest by 2a_i. 2a_i has 53
 * bits and IFMA reads 52, so its top bit t is added separately: t*a_x lands
 * one column up, which is where the high-half accumulator VH already points.
 * Row i starts at vector i/4, so about a quarter of the IFMAs go. */
static inline __attribute__((always_inline)) void
asqr_core(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0, const size_t nv)
{
    __m256i A[nv], Mv[nv], VL[nv], VH[nv];
    const __m256i zero = _mm256_setzero_si256();
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        A[v] = _mm256_load_si256((const __m256i *)(a + 4 * v));
        Mv[v] = _mm256_load_si256((const __m256i *)(m + 4 * v));
        VL[v] = zero;
    }
    const uint64_t m0 = m[0], m1 = m[1];
    uint64_t x = (a[0] * a[0]) & M52; /* column 0 */
#pragma GCC unroll 32
    for (size_t u = 0; u < nv; u++) {
#pragma GCC unroll 4
        for (size_t s = 0; s < 4; s++) {
            const size_t i = 4 * u + s;
            const uint64_t q = (x * n0) & M52;
            const uint64_t c = (x + M52) >> 52;
            const uint64_t ai = a[i], d = (ai << 1) & M52, t = 0 - (ai >> 51);
            const __m256i D = _mm256_set1_epi64x((long long)d);
            const __m256i T = _mm256_set1_epi64x((long long)t);
            /* Vector u: lanes below s done by earlier rows, lane s is the
             * diagonal, lanes above s doubled. */
            const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
            const __m256i above = _mm256_cmpgt_epi64(lane, _mm256_set1_epi64x((long long)s));
            const __m256i diag = _mm256_cmpeq_epi64(lane, _mm256_set1_epi64x((long long)s));
            const __m256i Bu = _mm256_or_si256(_mm256_and_si256(above, D),
                                               _mm256_and_si256(diag, _mm256_set1_epi64x((long long)ai)));
            VL[u] = _mm256_madd52lo_epu64(VL[u], A[u], Bu);
            VH[u] = _mm256_add_epi64(_mm256_madd52hi_epu64(zero, A[u], Bu),
                                     _mm256_and_si256(A[u], _mm256_and_si256(T, above)));
#pragma GCC unroll 32
            for (size_t v = u + 1; v < nv; v++) {
                VL[v] = _mm256_madd52lo_epu64(VL[v], A[v], D);
                VH[v] = _mm256_add_epi64(_mm256_madd52hi_epu64(zero, A[v], D),
                                         _mm256_and_si256(A[v], T));
            }
#pragma GCC unroll 32
            for (size_t v = 0; v < u; v++)
                VH[v] = zero;
            uint64_t y = (uint64_t)_mm256_extract_epi64(VL[0], 1) +
                         (uint64_t)_mm256_extract_epi64(VH[0], 0);
            const __m256i Q = _mm256_set1_epi64x((long long)q);
#pragma GCC unroll 32
            for (size_t v = 0; v < nv; v++) {
                VL[v] = _mm256_madd52lo_epu64(VL[v], Mv[v], Q);
                VH[v] = _mm256_madd52hi_epu64(VH[v], Mv[v], Q);
            }
#pragma GCC unroll 32
            for (size_t v = 0; v < nv; v++) {
                __m256i next = v + 1 < nv ? VL[v + 1] : zero;
                VL[v] = _mm256_add_epi64(_mm256_alignr_epi64(next, VL[v], 1), VH[v]);
            }
            x = y + c + hi52((unsigned __int128)m0 * q) + ((m1 * q) & M52);
        }
    }
    uint64_t t[4 * nv] __attribute__((aligned(32)));
    xv_amm_carry(r, t, VL, x, nv, 4 * nv, 52);
}

/* Squaring entry for xv_amm_fn (b is a). */
#define ASQR_FIXED(NV)                                                                      \
    static void asqr_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                       \
        const cs_bn_prep *c = ctx;                                                          \
        asqr_core(r, a, c->m, c->n0, NV);                                                   \
    }
/* Measured: the squaring wins at 1024 bits only (fully unrolled larger
 * sizes run out of registers). */
ASQR_FIXED(5)
XV_AMM_FIXED(5)   /* 1024 bits */
XV_AMM_FIXED(8)   /* 1536 */
XV_AMM_FIXED(10)  /* 2048 */
XV_AMM_FIXED(15)  /* 3072 */
XV_AMM_FIXED(20)  /* 4096 */

/* Any other size: the same code with a run-time vector count. */
XV_AMM_ANY

/* Sets up c for mont with the multiplication specialised to its size. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, 52, amm_any, amm_any))
        return -1;
    cs_bn_mul_fn *f = amm_any, *sq = NULL;
    switch (c->words / 4) {
    case 5: f = amm_5; sq = c->iters == 20 ? asqr_5 : NULL; break;
    case 8: f = amm_8; break;
    case 10: f = amm_10; break;
    case 15: f = amm_15; break;
    case 20: f = amm_20; break;
    }
    c->mul = f;
    c->sqr = sq ? sq : f;
    return 0;
}

XV_KERNEL(cs_bn_x86_ifma, "x86_64-ifma",
          CS_CPU_AVX512IFMA | CS_CPU_AVX512F | CS_CPU_AVX512VL | CS_CPU_BMI2, XV_MAX_BITS, prepare,
          &cs_ifma_pair, 1);
