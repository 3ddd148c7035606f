/* 512-bit FMA kernel for CPUs with AVX-512F but no IFMA (Skylake-SP,
 * Cascade Lake): 52-bit digits, eight a vector, products split by FMAs
 * (fma512_core.h). Its paired form (fma512_x2.c) serves RSA's CRT halves.
 * Built with -mavx512f -mfma -mbmi2 (mk/kernels_bn.mk); run only where
 * AVX-512F, FMA and BMI2 are present. */
#include "fma512_core.h"

/* m as doubles, digits 0 and 1 zero (f5_mod), for one number of nv
 * vectors. */
static inline __attribute__((always_inline)) void mod_doubles(double *md, const uint64_t *m,
                                                              const size_t NV)
{
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++) {
        __m512i mv = _mm512_loadu_si512((const __m512i *)(m + 8 * v));
        if (v == 0)
            mv = _mm512_maskz_mov_epi64(0xFC, mv);
        _mm512_store_si512((__m512i *)(md + 8 * v), _mm512_castpd_si512(f5_to_double(mv)));
    }
}

/* r = a*b/R' mod m (also a^2: f5_mul) for the prepared c of NV vectors. */
static inline __attribute__((always_inline)) void mul_nv(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b, const cs_bn_prep *c,
                                                         const size_t NV)
{
    double md[8 * F5_MAXNV] __attribute__((aligned(64)));
    mod_doubles(md, c->m, NV);
    const f5_mod k = {.md = md, .ms0 = {c->m[0] << 12}, .ms1 = {c->m[1] << 12}, .n0 = {c->n0}};
    f5_mul(r, a, b, &k, 1, NV, c->iters);
}

/* mul_2 .. mul_10 over mul_nv, and their table muls[NV]. */
F5_MUL_TABLE

/* Sets up c for mont: the digit form of xv_prepare, in whole vectors of
 * eight digits. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, F5_W, mul_2, mul_2))
        return -1;
    const size_t words = (c->iters + 7) & ~(size_t)7, nv = words / 8;
    if (nv < 2 || nv > F5_MAXNV)
        return -1;
    for (size_t j = c->words; j < words; j++)
        c->m[j] = c->rr[j] = c->rx[j] = 0;
    c->words = words;
    c->mul = c->sqr = muls[nv];
    return 0;
}

XV_KERNEL(cs_bn_x86_fma512, "x86_64-fma512", CS_CPU_AVX512F | CS_CPU_FMA | CS_CPU_BMI2,
          F5_MAX_BITS, prepare, &cs_fma512_pair, 1);
