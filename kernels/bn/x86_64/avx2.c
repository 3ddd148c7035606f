/* AVX2 kernel: 28-bit digits in 64-bit lanes, products by vpmuludq (exact,
 * at most 56 bits, so a lane may take 256 of them before it could
 * overflow: 2K products for K <= 112 digits, i.e. moduli up to 3072 bits).
 * Same column-serial almost-Montgomery shape as the IFMA kernel. Built with
 * AVX2 flags (mk/kernels_bn.mk); only called when the CPU has AVX2. */
#include "xv_amm.h"

#define M28 ((1ull << 28) - 1)
#define AVX2_MAX_BITS 3072

/* r = a*b/R' mod m (< 2m, normalised digits) with K = 4*nv digits. The
 * current column is followed in a scalar register; column i+1 is read from
 * the vectors before q_i's products land and those are added in scalar, so
 * the q chain never waits on a vector round trip. Lane 0 is never read back. */
static inline __attribute__((always_inline)) void
amm_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
         uint64_t n0, const size_t nv, const size_t iters)
{
    __m256i VL[nv];
    const __m256i *A = (const __m256i *)a, *Mv = (const __m256i *)m;
    const __m256i zero = _mm256_setzero_si256();
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++)
        VL[v] = zero;
    const uint64_t a0 = a[0], m0 = m[0], m1 = m[1];
    const size_t K = 4 * nv;
    uint64_t x = a0 * b[0];
    for (size_t i = 0; i < iters; i++) {
        const uint64_t q = (x * n0) & M28;
        const uint64_t c = (x + m0 * q) >> 28;
        const __m256i B = _mm256_set1_epi64x((long long)b[i]);
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++)
            VL[v] = _mm256_add_epi64(VL[v], _mm256_mul_epu32(_mm256_load_si256(A + v), B));
        uint64_t y = (uint64_t)_mm256_extract_epi64(VL[0], 1);
        const __m256i Q = _mm256_set1_epi64x((long long)q);
        __m256i rot[nv + 1];
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++) {
            VL[v] = _mm256_add_epi64(VL[v], _mm256_mul_epu32(_mm256_load_si256(Mv + v), Q));
            rot[v] = _mm256_permute4x64_epi64(VL[v], 0x39); /* lanes 1,2,3,0 */
        }
        rot[nv] = zero;
#pragma GCC unroll 32
        for (size_t v = 0; v < nv; v++)
            VL[v] = _mm256_blend_epi32(rot[v], rot[v + 1], 0xC0);
        const uint64_t bn = i + 1 < iters ? b[i + 1] : 0;
        x = y + c + m1 * q + a0 * bn;
    }
    uint64_t t[4 * nv] __attribute__((aligned(32)));
    xv_amm_carry(r, t, VL, x, nv, K, 28);
}

XV_AMM_FIXED(10)  /* 1024 bits */
XV_AMM_FIXED(14)  /* 1536 */
XV_AMM_FIXED(19)  /* 2048 */
XV_AMM_FIXED(28)  /* 3072 */
/* Any other size: the same code with a run-time vector count. */
XV_AMM_ANY

/* Sets up c for mont with the multiplication specialised to its size. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, 28, amm_any, amm_any))
        return -1;
    cs_bn_mul_fn *f = amm_any;
    switch (c->words / 4) {
    case 10: f = amm_10; break;
    case 14: f = amm_14; break;
    case 19: f = amm_19; break;
    case 28: f = amm_28; break;
    }
    c->mul = c->sqr = f;
    return 0;
}

XV_KERNEL(cs_bn_x86_avx2, "x86_64-avx2", CS_CPU_AVX2, AVX2_MAX_BITS, prepare, NULL, 0);
