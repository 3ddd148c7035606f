/* AVX-512 forward and inverse NTT over Z_q[X]/(X^256+1): the polynomial in
 * sixteen registers of sixteen coefficients, the same butterflies and
 * Montgomery products as the portable code (so the same values and bounds),
 * 32-bit vpmuldq Montgomery with precomputed zeta * q^-1 (IFMA's 52-bit
 * lanes hold half as many coefficients). Layers len 128..16 pair whole
 * registers; len 8, 4, 2, 1 run on register pairs after one lane
 * permutation each (S5..S8 below), all four involutions, so the inverse
 * undoes each with itself and the output keeps the lanes where S8 left
 * them (see avx512.h, "NTT order"). */
#include "avx512.h"
#include "ntt_avx512_zetas.h"

/* a * z * 2^-32 mod q lane-wise, |result| < q for |a*z| < q * 2^31;
 * zt = z * q^-1 mod 2^32; zo/zto hold the odd lanes' constants in the even
 * lanes (a broadcast constant serves as both). */
static inline __m512i montmul(__m512i a, __m512i z, __m512i zt, __m512i zo, __m512i zto)
{
    const __m512i q = _mm512_set1_epi32(AVX512_Q);
    __m512i ao = avx512_odd(a);
    __m512i pe = _mm512_mul_epi32(a, z), po = _mm512_mul_epi32(ao, zo);
    __m512i me = _mm512_mul_epi32(_mm512_mul_epi32(a, zt), q);
    __m512i mo = _mm512_mul_epi32(_mm512_mul_epi32(ao, zto), q);
    __m512i re = _mm512_sub_epi32(pe, me), ro = _mm512_sub_epi32(po, mo);
    return _mm512_mask_shuffle_epi32(ro, 0x5555, re, (_MM_PERM_ENUM)0xF5);
}

/* The broadcast twiddles come from the tables through pointers the
 * compiler cannot see through (TWIDDLES), so each is a broadcast load (a
 * load-port micro-op) rather than an immediate moved into a general
 * register and broadcast on the shuffle port the butterflies need. */
#define TWIDDLES(zs, zst, tab, tabtw)                                                   \
    const int32_t *zs = tab, *zst = tabtw;                                              \
    __asm__("" : "+r"(zs), "+r"(zst))

/* Cooley-Tukey butterfly (a, b) <- (a + zb, a - zb), broadcast twiddle k. */
#define CT_BC(a, b, k)                                                                  \
    do {                                                                                \
        __m512i z_ = _mm512_set1_epi32(zs[k]), zt_ = _mm512_set1_epi32(zst[k]);         \
        __m512i t_ = montmul(b, z_, zt_, z_, zt_);                                      \
        b = _mm512_sub_epi32(a, t_);                                                    \
        a = _mm512_add_epi32(a, t_);                                                    \
    } while (0)

/* Gentleman-Sande butterfly (a, b) <- (a + b, z(a - b)), z = -zeta_k. */
#define GS_BC(a, b, k)                                                                  \
    do {                                                                                \
        __m512i z_ = _mm512_set1_epi32(zs[k]), zt_ = _mm512_set1_epi32(zst[k]);         \
        __m512i t_ = a;                                                                 \
        a = _mm512_add_epi32(t_, b);                                                    \
        b = montmul(_mm512_sub_epi32(t_, b), z_, zt_, z_, zt_);                         \
    } while (0)

/* The same two with per-lane twiddles from tables v, vt (16 lanes; the odd
 * lanes' constants come from the same tables one word on). */
static inline void ct_vec(__m512i *a, __m512i *b, const int32_t *v, const int32_t *vt)
{
    __m512i t = montmul(*b, avx512_load(v), avx512_load(vt), avx512_load(v + 1),
                        avx512_load(vt + 1));
    *b = _mm512_sub_epi32(*a, t);
    *a = _mm512_add_epi32(*a, t);
}

/* Gentleman-Sande with per-lane twiddles (see ct_vec). */
static inline void gs_vec(__m512i *a, __m512i *b, const int32_t *v, const int32_t *vt)
{
    __m512i t = *a;
    *a = _mm512_add_epi32(t, *b);
    *b = montmul(_mm512_sub_epi32(t, *b), avx512_load(v), avx512_load(vt), avx512_load(v + 1),
                 avx512_load(vt + 1));
}

/* The lane permutations of a register pair (x, y), each its own inverse.
 * S5: 256-bit halves transposed, (x.lo y.lo, x.hi y.hi): pairs lanes 8
 * apart. */
static inline void s5(__m512i *x, __m512i *y)
{
    __m512i a = _mm512_shuffle_i64x2(*x, *y, 0x44), b = _mm512_shuffle_i64x2(*x, *y, 0xEE);
    *x = a, *y = b;
}

/* S6: 128-bit blocks transposed within each 256-bit half (pairs lanes 4 apart). */
static inline void s6(__m512i *x, __m512i *y)
{
    const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    __m512i a = _mm512_permutex2var_epi64(*x, lo, *y), b = _mm512_permutex2var_epi64(*x, hi, *y);
    *x = a, *y = b;
}

/* S7: 64-bit words transposed within each 128-bit block (pairs lanes 2 apart). */
static inline void s7(__m512i *x, __m512i *y)
{
    __m512i a = _mm512_unpacklo_epi64(*x, *y), b = _mm512_unpackhi_epi64(*x, *y);
    *x = a, *y = b;
}

/* S8: 32-bit words transposed within each 2x2 of (64-bit word, register)
 * (pairs neighbouring lanes). */
static inline void s8(__m512i *x, __m512i *y)
{
    __m512i a = _mm512_mask_shuffle_epi32(*x, 0xAAAA, *y, (_MM_PERM_ENUM)0xA0);
    __m512i b = _mm512_mask_shuffle_epi32(*y, 0x5555, *x, (_MM_PERM_ENUM)0xF5);
    *x = a, *y = b;
}

/* Forward layers len 8..1 of register pair m (coefficients 32m..32m+31). */
static inline __attribute__((always_inline)) void fwd_pair(__m512i *x, __m512i *y, unsigned m)
{
    const int32_t *v = z512_fwd + 64 * m, *vt = z512_fwd_tw + 64 * m;
    s5(x, y), ct_vec(x, y, v, vt);
    s6(x, y), ct_vec(x, y, v + 16, vt + 16);
    s7(x, y), ct_vec(x, y, v + 32, vt + 32);
    s8(x, y), ct_vec(x, y, v + 48, vt + 48);
}

/* Inverse layers len 1..8 of register pair m, back to coefficient order. */
static inline __attribute__((always_inline)) void inv_pair(__m512i *x, __m512i *y, unsigned m)
{
    const int32_t *v = z512_inv + 64 * m, *vt = z512_inv_tw + 64 * m;
    gs_vec(x, y, v, vt), s8(x, y);
    gs_vec(x, y, v + 16, vt + 16), s7(x, y);
    gs_vec(x, y, v + 32, vt + 32), s6(x, y);
    gs_vec(x, y, v + 48, vt + 48), s5(x, y);
}

/* The sixteen registers as named variables (GCC keeps those in registers). */
#define LOAD16(p)                                                                       \
    __m512i r0 = avx512_load((p) + 0), r1 = avx512_load((p) + 16), r2 = avx512_load((p) + 32), \
            r3 = avx512_load((p) + 48), r4 = avx512_load((p) + 64), r5 = avx512_load((p) + 80), \
            r6 = avx512_load((p) + 96), r7 = avx512_load((p) + 112), r8 = avx512_load((p) + 128), \
            r9 = avx512_load((p) + 144), r10 = avx512_load((p) + 160), r11 = avx512_load((p) + 176), \
            r12 = avx512_load((p) + 192), r13 = avx512_load((p) + 208), r14 = avx512_load((p) + 224), \
            r15 = avx512_load((p) + 240)
#define STORE16(p)                                                                      \
    avx512_store((p) + 0, r0), avx512_store((p) + 16, r1), avx512_store((p) + 32, r2),  \
    avx512_store((p) + 48, r3), avx512_store((p) + 64, r4), avx512_store((p) + 80, r5), \
    avx512_store((p) + 96, r6), avx512_store((p) + 112, r7), avx512_store((p) + 128, r8), \
    avx512_store((p) + 144, r9), avx512_store((p) + 160, r10), avx512_store((p) + 176, r11), \
    avx512_store((p) + 192, r12), avx512_store((p) + 208, r13), avx512_store((p) + 224, r14), \
    avx512_store((p) + 240, r15)

/* Forward NTT, output in this file's order. Each layer adds at most q to
 * the bound (every product is below q): |out| < |in| + 8q. */
void cs_mldsa_ntt_avx512(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    TWIDDLES(zs, zst, z512_sc, z512_sc_tw);
    LOAD16(a);
    CT_BC(r0, r8, 1); CT_BC(r1, r9, 1); CT_BC(r2, r10, 1); CT_BC(r3, r11, 1);
    CT_BC(r4, r12, 1); CT_BC(r5, r13, 1); CT_BC(r6, r14, 1); CT_BC(r7, r15, 1);
    CT_BC(r0, r4, 2); CT_BC(r1, r5, 2); CT_BC(r2, r6, 2); CT_BC(r3, r7, 2);
    CT_BC(r8, r12, 3); CT_BC(r9, r13, 3); CT_BC(r10, r14, 3); CT_BC(r11, r15, 3);
    CT_BC(r0, r2, 4); CT_BC(r1, r3, 4); CT_BC(r4, r6, 5); CT_BC(r5, r7, 5);
    CT_BC(r8, r10, 6); CT_BC(r9, r11, 6); CT_BC(r12, r14, 7); CT_BC(r13, r15, 7);
    CT_BC(r0, r1, 8); CT_BC(r2, r3, 9); CT_BC(r4, r5, 10); CT_BC(r6, r7, 11);
    CT_BC(r8, r9, 12); CT_BC(r10, r11, 13); CT_BC(r12, r13, 14); CT_BC(r14, r15, 15);
    fwd_pair(&r0, &r1, 0), fwd_pair(&r2, &r3, 1), fwd_pair(&r4, &r5, 2);
    fwd_pair(&r6, &r7, 3), fwd_pair(&r8, &r9, 4), fwd_pair(&r10, &r11, 5);
    fwd_pair(&r12, &r13, 6), fwd_pair(&r14, &r15, 7);
    STORE16(a);
}

/* Inverse NTT from this file's order, times 2^32: the portable code's
 * butterflies, its last layer with the 2^64/256 scaling folded in (sums
 * times F, differences times mont(-zeta_1 * F)). Sums double per layer:
 * |in| < q keeps them below 256q < 2^31. */
void cs_mldsa_invntt_avx512(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    LOAD16(a);
    inv_pair(&r0, &r1, 0), inv_pair(&r2, &r3, 1), inv_pair(&r4, &r5, 2);
    inv_pair(&r6, &r7, 3), inv_pair(&r8, &r9, 4), inv_pair(&r10, &r11, 5);
    inv_pair(&r12, &r13, 6), inv_pair(&r14, &r15, 7);
    TWIDDLES(zs, zst, z512_isc, z512_isc_tw);
    GS_BC(r0, r1, 15); GS_BC(r2, r3, 14); GS_BC(r4, r5, 13); GS_BC(r6, r7, 12);
    GS_BC(r8, r9, 11); GS_BC(r10, r11, 10); GS_BC(r12, r13, 9); GS_BC(r14, r15, 8);
    GS_BC(r0, r2, 7); GS_BC(r1, r3, 7); GS_BC(r4, r6, 6); GS_BC(r5, r7, 6);
    GS_BC(r8, r10, 5); GS_BC(r9, r11, 5); GS_BC(r12, r14, 4); GS_BC(r13, r15, 4);
    GS_BC(r0, r4, 3); GS_BC(r1, r5, 3); GS_BC(r2, r6, 3); GS_BC(r3, r7, 3);
    GS_BC(r8, r12, 2); GS_BC(r9, r13, 2); GS_BC(r10, r14, 2); GS_BC(r11, r15, 2);
    const __m512i f = _mm512_set1_epi32(zs[16]), ft = _mm512_set1_epi32(zst[16]);
    const __m512i fz = _mm512_set1_epi32(zs[17]), fzt = _mm512_set1_epi32(zst[17]);
#define LAST(x, y)                                                                      \
    do {                                                                                \
        __m512i t_ = x;                                                                 \
        x = montmul(_mm512_add_epi32(t_, y), f, ft, f, ft);                             \
        y = montmul(_mm512_sub_epi32(t_, y), fz, fzt, fz, fzt);                         \
    } while (0)
    LAST(r0, r8); LAST(r1, r9); LAST(r2, r10); LAST(r3, r11);
    LAST(r4, r12); LAST(r5, r13); LAST(r6, r14); LAST(r7, r15);
#undef LAST
    STORE16(a);
}

/* FIPS order -> this file's order. S8.S7.S6.S5 on a register pair comes
 * to splitting its 32 coefficients by parity (evens in the first register,
 * odds in the second), so two vpermt2d do what the four steps do. */
void cs_mldsa_nttorder_avx512(cs_mldsa_poly *p)
{
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    for (unsigned m = 0; m < 8; m++) {
        __m512i x = avx512_load(p->c + 32 * m), y = avx512_load(p->c + 32 * m + 16);
        avx512_store(p->c + 32 * m, _mm512_permutex2var_epi32(x, ev, y));
        avx512_store(p->c + 32 * m + 16, _mm512_permutex2var_epi32(x, od, y));
    }
}

/* The odd lanes of p[i..i+16) in the even ones (what vpmuldq reads). A
 * load one word on instead of the shift measured slower: it splits a cache
 * line every time. */
static inline __attribute__((always_inline)) __m512i odd_at(const int32_t *p, unsigned i)
{
    return _mm512_srli_epi64(avx512_load(p + i), 32);
}

/* c = mont(a * b) lane-wise. */
void cs_mldsa_pointwise_avx512(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 16) {
        __m512i pe = _mm512_mul_epi32(avx512_load(a->c + i), avx512_load(b->c + i));
        __m512i po = _mm512_mul_epi32(odd_at(a->c, i), odd_at(b->c, i));
        avx512_store(c->c + i, avx512_montred(pe, po));
    }
}

/* Thirty-two coefficients of c = mont(sum of n products), summed in 64
 * bits like the portable code (|sum| < 8 q 2^31 < 2^57), one reduction
 * each. Inlined with n and i constants, so the loops unroll. */
static inline __attribute__((always_inline)) void acc32(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                                        const cs_mldsa_poly *b, unsigned n,
                                                        unsigned i, int reduce)
{
    __m512i se0 = _mm512_setzero_si512(), so0 = se0, se1 = se0, so1 = se0;
    for (unsigned j = 0; j < n; j++) {
        const int32_t *x = a[j].c, *y = b[j].c;
        se0 = _mm512_add_epi64(se0, _mm512_mul_epi32(avx512_load(x + i), avx512_load(y + i)));
        so0 = _mm512_add_epi64(so0, _mm512_mul_epi32(odd_at(x, i), odd_at(y, i)));
        se1 = _mm512_add_epi64(se1, _mm512_mul_epi32(avx512_load(x + i + 16),
                                                     avx512_load(y + i + 16)));
        so1 = _mm512_add_epi64(so1, _mm512_mul_epi32(odd_at(x, i + 16), odd_at(y, i + 16)));
    }
    __m512i r0 = avx512_montred(se0, so0), r1 = avx512_montred(se1, so1);
    if (reduce) {
        const __m512i q = _mm512_set1_epi32(AVX512_Q), half = _mm512_set1_epi32(1 << 22);
        r0 = _mm512_sub_epi32(r0, _mm512_mullo_epi32(_mm512_srai_epi32(_mm512_add_epi32(r0, half), 23), q));
        r1 = _mm512_sub_epi32(r1, _mm512_mullo_epi32(_mm512_srai_epi32(_mm512_add_epi32(r1, half), 23), q));
    }
    avx512_store(c->c + i, r0);
    avx512_store(c->c + i + 16, r1);
}

/* The two accumulating hooks (acc_hooks.h), thirty-two coefficients a step,
 * the eight steps written out for the fixed lengths. */
#define ACC_SFX avx512
#define ACC_FIXED(c, a, b, N, red)                                                      \
    acc32(c, a, b, N, 0, red), acc32(c, a, b, N, 32, red), acc32(c, a, b, N, 64, red),  \
        acc32(c, a, b, N, 96, red), acc32(c, a, b, N, 128, red),                        \
        acc32(c, a, b, N, 160, red), acc32(c, a, b, N, 192, red),                       \
        acc32(c, a, b, N, 224, red)
#define ACC_ANY(c, a, b, n, red)                                                        \
    for (unsigned i = 0; i < 256; i += 32)                                              \
    acc32(c, a, b, n, i, red)
#include "acc_hooks.h"
