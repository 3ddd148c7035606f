/* The 512-bit FMA kernel's paired arithmetic: two exponentiations with
 * secret exponents (RSA's CRT halves) of the same digit count in one
 * instruction stream, the halves' digits interleaved (p[2j + h] is digit j
 * of half h) so a vector holds four digits of both and one instruction
 * serves the two; their scalar q chains run side by side. The arithmetic
 * is fma512_core.h's. Built with -mavx512f -mfma -mbmi2; used only through
 * the fma512 kernel. */
#include "fma512_core.h"

/* The pair's moduli and constants, interleaved, and its arithmetic. */
typedef struct pair_ctx {
    double md[8 * F5_MAXNV] __attribute__((aligned(64))); /* f5_mod's m */
    f5_mod k;
    size_t nd;   /* digits of a half in a joined number (4 NV) */
    size_t it;   /* digits used */
    size_t half; /* words of a half in its own form */
    cs_bn_mul_fn *mul;
} pair_ctx;

/* r = a*b/R' mod m (also a^2: f5_mul) for both halves, NV vectors. */
static inline __attribute__((always_inline)) void mul_nv(uint64_t *r, const uint64_t *a,
                                                         const uint64_t *b, const void *ctx,
                                                         const size_t NV)
{
    const pair_ctx *pc = ctx;
    f5_mul(r, a, b, &pc->k, 2, NV, pc->it);
}

/* mul_2 .. mul_10 over mul_nv, and their table muls[NV]. */
F5_MUL_TABLE

/* The engine's paired multiplication (and squaring: b = a) on the
 * context. */
static void mul2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    pc->mul(r, a, b, pc);
}

/* out = entry idx[0] of half 0 and entry idx[1] of half 1 of the
 * interleaved table (words = 8 NV), every entry read and blended in under
 * lane masks: the indices are secret. */
static void select2(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx)
{
    const __m512i want = _mm512_mask_blend_epi64(0xAA, _mm512_set1_epi64((long long)idx[0]),
                                                 _mm512_set1_epi64((long long)idx[1]));
    for (size_t v = 0; v < words; v += 8) {
        __m512i acc = _mm512_setzero_si512();
        for (size_t j = 0; j < entries; j++) {
            const __mmask8 hit = _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((long long)j), want);
            acc = _mm512_mask_blend_epi64(hit, acc,
                                          _mm512_loadu_si512((const __m512i *)(tab + j * words + v)));
        }
        _mm512_storeu_si512((__m512i *)(out + v), acc);
    }
}

/* Joined numbers: the halves' digits interleaved. */
static void join(cs_limb *p, const cs_limb *d0, const cs_limb *d1, const void *ctx)
{
    xv_interleave(p, d0, d1, ((const pair_ctx *)ctx)->nd);
}

/* The halves of p, zero above the joined digits up to a half's words. */
static void split(cs_limb *d0, cs_limb *d1, const cs_limb *p, const void *ctx)
{
    const pair_ctx *pc = ctx;
    xv_deinterleave(d0, d1, p, pc->nd);
    for (size_t j = pc->nd; j < pc->half; j++)
        d0[j] = d1[j] = 0;
}

/* Fills the pair context from the halves' contexts when both use the same
 * number of digits (in whole four-digit vectors, at most F5_MAXNV);
 * returns the joined words, or 0. */
static size_t prepare2(void *ctx, const cs_bn_prep *p0, const cs_bn_prep *p1)
{
    pair_ctx *pc = ctx;
    if (p0->iters != p1->iters || p0->words != p1->words)
        return 0;
    const size_t nv = (p0->iters + 3) / 4;
    if (nv < 2 || nv > F5_MAXNV)
        return 0;
    pc->nd = 4 * nv;
    pc->it = p0->iters;
    pc->half = p0->words;
    pc->mul = muls[nv];
    uint64_t m[8 * F5_MAXNV] __attribute__((aligned(64)));
    join(m, p0->m, p1->m, pc);
    for (size_t v = 0; v < nv; v++) {
        __m512i mv = _mm512_loadu_si512((const __m512i *)(m + 8 * v));
        if (v == 0)
            mv = _mm512_maskz_mov_epi64(0xF0, mv);
        _mm512_storeu_si512((__m512i *)(pc->md + 8 * v), _mm512_castpd_si512(f5_to_double(mv)));
    }
    pc->k.md = pc->md;
    for (int h = 0; h < 2; h++) {
        const cs_bn_prep *p = h ? p1 : p0;
        pc->k.ms0[h] = p->m[0] << 12;
        pc->k.ms1[h] = p->m[1] << 12;
        pc->k.n0[h] = p->n0;
    }
    return 2 * pc->nd;
}

CS_BN_PAIR_OPS(cs_fma512_pair, pair_ctx, prepare2, join, split, mul2, mul2, select2);
