/* The FMA kernel's paired arithmetic: two independent exponentiations with
 * secret exponents (RSA's CRT halves) in one instruction stream. A joined
 * number is the two halves' digit vectors one after the other; the
 * multiplication and squaring are fma.c's product scanning run over both
 * halves step by step (ps_core2, fma_core.h): one loop's control serves
 * both halves' products and the two scalar q chains overlap. Measured on
 * Zen 5 the single code is bound by instruction throughput (about 4200
 * instructions a 1024-bit multiplication, 5-6 a cycle), not by its chain's
 * latency, so the gain is small: 4% over two single exponentiations at
 * 1024 bits. Built with -mavx2 -mfma; used only through the FMA kernel
 * (AVX2 and FMA present). */
#include "fma_core.h"

/* The halves the paired code serves: PS2_ND = 21 digits each, in PS2_K
 * words (999..1048-bit moduli, RSA-2048's CRT halves). At 1536 bits a
 * paired code was 0.96x of two single calls, so other sizes (both halves of
 * one word count) run each half's own single code in turn: as fast as two
 * exp calls, and a forced FMA kernel still serves every pair it did. */
#define K PS2_K
#define ND PS2_ND

/* The pair's moduli and constants (fixed: the paired code), else the
 * halves' own contexts, which outlive the call's pair context. */
typedef struct {
    uint64_t m[2][K] __attribute__((aligned(32)));
    uint64_t n0[2];
    const cs_bn_prep *p[2];
    size_t half; /* words of a half */
    int fixed;
} pair_ctx;

/* The paired code's multiplication and squaring of both halves. Not
 * inlined into mul2 and sqr2: their frames (both halves' arrays) would then
 * sit under the half-by-half calls too, past the stack the engine wipes
 * (CS_BN_WIPE_STACK) at 4096 bits. */
static __attribute__((noinline)) void paired_mul(cs_limb *r, const cs_limb *a, const cs_limb *b,
                                                 const pair_ctx *pc)
{
    const struct ps_half hv[2] = {{r, a, b, pc->m[0], pc->n0[0]},
                                  {r + K, a + K, b + K, pc->m[1], pc->n0[1]}};
    ps_core2(hv, 0);
}

static __attribute__((noinline)) void paired_sqr(cs_limb *r, const cs_limb *a,
                                                 const pair_ctx *pc)
{
    const struct ps_half hv[2] = {{r, a, a, pc->m[0], pc->n0[0]},
                                  {r + K, a + K, a + K, pc->m[1], pc->n0[1]}};
    ps_core2(hv, 1);
}

/* r = a*b/R' mod m for both halves of joined numbers (cs_bn_mul_fn). */
static void mul2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    if (pc->fixed) {
        paired_mul(r, a, b, pc);
        return;
    }
    const size_t w = pc->half;
    pc->p[0]->mul(r, a, b, pc->p[0]);
    pc->p[1]->mul(r + w, a + w, b + w, pc->p[1]);
}

/* r = a^2/R' mod m for both halves (b unused). */
static void sqr2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    if (pc->fixed) {
        paired_sqr(r, a, pc);
        return;
    }
    const size_t w = pc->half;
    pc->p[0]->sqr(r, a, a, pc->p[0]);
    pc->p[1]->sqr(r + w, a + w, a + w, pc->p[1]);
}

/* out = entry idx[0] of half 0 and entry idx[1] of half 1 (each half
 * words/2, a multiple of 4; the table aligned): every entry loaded and kept
 * under a mask from a compare, so neither branch nor address depends on
 * the secret indices. */
static void select2(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx)
{
    const size_t half = words / 2;
    for (size_t h = 0; h < 2; h++) {
        const __m256i want = _mm256_set1_epi64x((long long)idx[h]);
        for (size_t i = h * half; i < (h + 1) * half; i += 8) {
            __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
            const int two = i + 4 < (h + 1) * half; /* public: depends on the size only */
            for (size_t j = 0; j < entries; j++) {
                const __m256i mask = _mm256_cmpeq_epi64(_mm256_set1_epi64x((long long)j), want);
                const __m256i *t = (const __m256i *)(tab + j * words + i);
                acc0 = _mm256_or_si256(acc0, _mm256_and_si256(_mm256_load_si256(t), mask));
                if (two)
                    acc1 = _mm256_or_si256(acc1,
                                           _mm256_and_si256(_mm256_load_si256(t + 1), mask));
            }
            _mm256_store_si256((__m256i *)(out + i), acc0);
            if (two)
                _mm256_store_si256((__m256i *)(out + i + 4), acc1);
        }
    }
}

/* Joined numbers: half 0's digits, then half 1's. */
static void join(cs_limb *x, const cs_limb *x0, const cs_limb *x1, const void *ctx)
{
    const pair_ctx *pc = ctx;
    memcpy(x, x0, pc->half * sizeof *x);
    memcpy(x + pc->half, x1, pc->half * sizeof *x);
}

static void split(cs_limb *x0, cs_limb *x1, const cs_limb *x, const void *ctx)
{
    const pair_ctx *pc = ctx;
    memcpy(x0, x, pc->half * sizeof *x);
    memcpy(x1, x + pc->half, pc->half * sizeof *x);
}

/* Fills the pair context from the halves' FMA contexts when both take the
 * same number of words (the paired code when both have 21 digits); returns
 * the joined words, or 0. */
static size_t prepare2(void *ctx, const cs_bn_prep *p0, const cs_bn_prep *p1)
{
    pair_ctx *pc = ctx;
    if (p0->words != p1->words || p0->words % 4)
        return 0;
    pc->p[0] = p0, pc->p[1] = p1;
    pc->half = p0->words;
    pc->fixed = p0->words == K && p0->iters == ND && p1->iters == ND;
    if (pc->fixed) {
        memcpy(pc->m[0], p0->m, K * sizeof(uint64_t));
        memcpy(pc->m[1], p1->m, K * sizeof(uint64_t));
        pc->n0[0] = p0->n0, pc->n0[1] = p1->n0;
    }
    return 2 * p0->words;
}

CS_BN_PAIR_OPS(cs_fma_pair, pair_ctx, prepare2, join, split, mul2, sqr2, select2);
