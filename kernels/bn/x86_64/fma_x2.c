/* The FMA kernel's paired arithmetic: two independent exponentiations with
 * secret exponents (RSA's CRT halves) in one instruction stream. A joined
 * number is the two halves' digit vectors one after the other; the
 * multiplication and squaring are fma.c's product scanning run over both
 * halves step by step (ps_core_n with NH = 2), so while one half's scalar q
 * chain waits on its multiplier latencies the other's runs, and the FMA
 * ports get both halves' products. At 1024 bits one number's chain alone
 * leaves the ports idle most of the time (docs/benchmarks.md). Built with
 * -mavx2 -mfma; used only through the FMA kernel (AVX2 and FMA present). */
#include "fma_core.h"

/* The pair's moduli and constants: both halves of one digit count. */
typedef struct {
    uint64_t m[2][XV_MAXK] __attribute__((aligned(32)));
    uint64_t n0[2];
    size_t nv, d; /* vectors and digits of each half */
} pair_ctx;

/* r = a*b/R' (b == a: a^2/R') mod m for both halves of joined numbers, nv
 * vectors and d digits a half (constants where inlined with constants). */
static inline __attribute__((always_inline)) void
ps2(uint64_t *r, const uint64_t *a, const uint64_t *b, const pair_ctx *pc, size_t nv, size_t d,
    int sq)
{
    const size_t K = 4 * nv;
    const struct ps_half hv[2] = {{r, a, b, pc->m[0], pc->n0[0]},
                                  {r + K, a + K, b + K, pc->m[1], pc->n0[1]}};
    ps_core_n(hv, nv, d, sq, 2);
}

/* 1024-bit moduli (and those down to 1001 bits): 21 digits in 6 vectors. */
static void ps2_6_21(uint64_t *r, const uint64_t *a, const uint64_t *b, const pair_ctx *pc)
{
    ps2(r, a, b, pc, 6, 21, 0);
}

static void pq2_6_21(uint64_t *r, const uint64_t *a, const pair_ctx *pc)
{
    ps2(r, a, a, pc, 6, 21, 1);
}

/* Any other digit count, sizes at run time. */
static void ps2_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const pair_ctx *pc)
{
    ps2(r, a, b, pc, pc->nv, pc->d, 0);
}

static void pq2_any(uint64_t *r, const uint64_t *a, const pair_ctx *pc)
{
    ps2(r, a, a, pc, pc->nv, pc->d, 1);
}

/* The engine's paired multiplication and squaring (cs_bn_mul_fn): the
 * specialised code where the size has it. */
static void mul2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    if (pc->nv == 6 && pc->d == 21)
        ps2_6_21(r, a, b, pc);
    else
        ps2_any(r, a, b, pc);
}

static void sqr2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    if (pc->nv == 6 && pc->d == 21)
        pq2_6_21(r, a, pc);
    else
        pq2_any(r, a, pc);
}

/* out = entry idx[0] of half 0 and entry idx[1] of half 1 (words = 2K, K a
 * multiple of 4, the table aligned): every entry loaded and kept under a
 * mask from a compare, so neither branch nor address depends on the secret
 * indices. */
static void select2(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx)
{
    const size_t K = words / 2;
    for (size_t h = 0; h < 2; h++) {
        const __m256i want = _mm256_set1_epi64x((long long)idx[h]);
        for (size_t i = h * K; i < (h + 1) * K; i += 8) {
            __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
            const int two = i + 4 < (h + 1) * K; /* public: depends on K only */
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

/* Joined numbers: half 0's K digits, then half 1's (K = words / 2). */
static void join(cs_limb *x, const cs_limb *x0, const cs_limb *x1, const void *ctx)
{
    const pair_ctx *pc = ctx;
    const size_t K = 4 * pc->nv;
    memcpy(x, x0, K * sizeof *x);
    memcpy(x + K, x1, K * sizeof *x);
}

static void split(cs_limb *x0, cs_limb *x1, const cs_limb *x, const void *ctx)
{
    const pair_ctx *pc = ctx;
    const size_t K = 4 * pc->nv;
    memcpy(x0, x, K * sizeof *x);
    memcpy(x1, x + K, K * sizeof *x);
}

/* Fills the pair context from the halves' FMA contexts when they have the
 * same digit count; returns the joined words, or 0. */
static size_t prepare2(void *ctx, const cs_bn_prep *p0, const cs_bn_prep *p1)
{
    pair_ctx *pc = ctx;
    if (p0->words != p1->words || p0->iters != p1->iters || p0->words % 4 ||
        p0->words > XV_MAXK)
        return 0;
    pc->nv = p0->words / 4;
    pc->d = p0->iters;
    memcpy(pc->m[0], p0->m, p0->words * sizeof(uint64_t));
    memcpy(pc->m[1], p1->m, p1->words * sizeof(uint64_t));
    pc->n0[0] = p0->n0, pc->n0[1] = p1->n0;
    return 2 * p0->words;
}

const cs_bn_pair_ops cs_fma_pair = {
    .ctx_bytes = sizeof(pair_ctx),
    .prepare = prepare2,
    .join = join,
    .split = split,
    .mul = mul2,
    .sqr = sqr2,
    .select = select2,
};
