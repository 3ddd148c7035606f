/* The 512-bit FMA kernel's arithmetic (fma512.c: one number; fma512_x2.c:
 * RSA's two CRT halves interleaved digit by digit), for CPUs with AVX-512F
 * but no IFMA. Digits of 52 bits (the IFMA kernel's form), held exactly in
 * doubles for the products; each product of two digits is split by two
 * FMAs around a subtraction into a high part rounded to nearest (a multiple
 * of 2^52) and an exact signed low part, both read as integers from the
 * bits of biased doubles and summed in 64-bit lanes: what one vpmadd52huq
 * and one vpmadd52luq do, in three FP operations and two integer adds.
 * The multiplication is ifma.c's column-serial almost-Montgomery shape (a
 * window of columns moving down a digit a step, the current column
 * followed in scalar), with the products the scalar needs kept out of the
 * vectors so each product is split one way only. Included only by sources
 * built with -mavx512f -mfma -mbmi2. Internal header. */
#ifndef CRYPTOSHIM_BN_X86_FMA512_CORE_H
#define CRYPTOSHIM_BN_X86_FMA512_CORE_H

#include <immintrin.h>
#include <string.h>

#include "x86_kernels.h"
#include "xv.h"

#define F5_W 52
#define F5_M52 ((1ull << 52) - 1)
/* Widest number: 4096 bits in 80 digits, ten vectors of eight. */
#define F5_MAXNV 10
#define F5_MAX_BITS 4096

/* The high part of x*y (x, y < 2^52) rounds into [2^104, 2^105]: its ulp
 * there is 2^52, so the bits of 2^104 + k 2^52 read as F5_BH + k (at k =
 * 2^52 too: the next binade starts exactly one ulp on). The low part
 * comes out as 1.5 2^52 - lo with lo in [-2^51, 2^51], a double in [2^52,
 * 2^53] whose bits read as F5_BL - lo the same way. */
#define F5_CH 0x1p104
#define F5_CHL (0x1p104 - 0x1.8p52)
#define F5_BH 0x4670000000000000ull /* bits of 2^104 */
#define F5_BL 0x4338000000000000ull /* bits of 1.5 * 2^52 */
#define F5_EXP52 0x4330000000000000ull /* bits of 2^52 */

/* Digits (below 2^52) to doubles, exactly: 2^52 + x, less 2^52. */
static inline __m512d f5_to_double(__m512i x)
{
    const __m512i e = _mm512_set1_epi64((long long)F5_EXP52);
    return _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(x, e)), _mm512_castsi512_pd(e));
}

/* x*y for digits x, y in doubles: subtracts the low part's bits (F5_BL -
 * lo) from *L, so *L gains lo - F5_BL, and returns the high part's bits
 * (F5_BH + hi), hi one column up. h - F5_CHL is (hi + 1.5) 2^52 exactly
 * (hi is at most 2^52 - 2 for digits below 2^52), so the second FMA's
 * result t - x*y is exact. */
static inline __attribute__((always_inline)) __m512i f5_prod(__m512i *L, __m512d x, __m512d y)
{
    const __m512d ch = _mm512_set1_pd(F5_CH), chl = _mm512_set1_pd(F5_CHL);
    const __m512d h = _mm512_fmadd_pd(x, y, ch);
    const __m512d l = _mm512_fnmadd_pd(x, y, _mm512_sub_pd(h, chl));
    *L = _mm512_sub_epi64(*L, _mm512_castpd_si512(l));
    return _mm512_castpd_si512(h);
}

/* The biases in the lanes of column i+1 when step i reads it (f5_read):
 * each step adds two low parts to the window's columns s..s+K-1 and two
 * high parts to s+1..s+K (after the move), and step i its a*b low parts.
 * With IT <= K, that is 2i high parts and 2i + 1 low ones, two fewer at
 * i = K-1 (column K entered the window at step 1). Public: sizes only. */
static inline uint64_t f5_bias_read(size_t i, size_t K)
{
    const uint64_t nlo = 2 * i + 1 - (i + 1 == K ? 2 : 0);
    return 2 * i * F5_BH - nlo * F5_BL;
}

/* The biases column c (IT <= c < 2 IT) carries after IT steps: 2(IT -
 * max(0, c-K)) high parts and 2(IT - max(0, c-K+1)) low ones. */
static inline uint64_t f5_bias_out(size_t c, size_t IT, size_t K)
{
    const uint64_t nhi = 2 * (IT - (c > K ? c - K : 0));
    const uint64_t nlo = 2 * (IT - (c + 1 > K ? c + 1 - K : 0));
    return nhi * F5_BH - nlo * F5_BL;
}

/* The operands of one multiplication: P numbers (1, or 2 interleaved
 * digit by digit: p[2j + h] is digit j of number h), m as doubles with
 * digits 0 and 1 zero (their products with q are the scalar's), and per
 * number m_0 and m_1 moved up 12 bits (the high word of q times one is
 * the product's high part, the low word its low part moved up) and n0. */
typedef struct {
    const double *md;
    uint64_t ms0[2], ms1[2], n0[2];
} f5_mod;

/* One multiplication's running state: the window of
 * columns (VL: the columns' sums; VH: this step's high parts, one column
 * up), m, and per number the scalar chain: x (the current column, whole),
 * q, pend (scalar parts of the next column). The scalar's parts of a*b:
 * lo[P j + h], hi[P j + h] are the low and high parts of a_0 b_j; two
 * zero entries past the end. The
 * parts are separate arrays, declared by F5_STATE in the caller and
 * passed as pointers to inlined steps, so the compiler keeps the vectors
 * and the chains in registers (one struct holding them all stayed in
 * memory). */
#define F5_STATE                                                                           \
    __m512i VL[F5_MAXNV], VH[F5_MAXNV];                                                    \
    __m512d M[F5_MAXNV];                                                                   \
    int64_t x[2], pend[2];                                                                 \
    uint64_t q[2];                                                                         \
    int64_t lo[8 * F5_MAXNV + 2] __attribute__((aligned(64)));                             \
    int64_t hi[8 * F5_MAXNV + 2] __attribute__((aligned(64)));                             \
    const f5_st st = {VL, VH, M, x, pend, q, lo, hi}

/* Pointers to the parts of F5_STATE. */
typedef struct {
    __m512i *VL, *VH;
    __m512d *M;
    int64_t *x, *pend;
    uint64_t *q;
    int64_t *lo, *hi;
} f5_st;

/* Clears the window, loads m, and starts the chains at column 0 (lo and
 * hi filled). */
static inline __attribute__((always_inline)) void f5_start(const f5_st *st, const f5_mod *k,
                                                           const int P, const size_t NV)
{
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++) {
        st->VL[v] = _mm512_setzero_si512();
        st->M[v] = _mm512_castsi512_pd(_mm512_loadu_si512((const __m512i *)(k->md + 8 * v)));
    }
#pragma GCC unroll 2
    for (int h = 0; h < P; h++) {
        st->x[h] = st->lo[h];
        st->pend[h] = st->hi[h];
        st->q[h] = ((uint64_t)st->x[h] * k->n0[h]) & F5_M52;
    }
}

/* Column i+1 of each number as the window holds it (lanes 2, 3 of the
 * pair, or 1), after step i's a*b products. */
static inline __attribute__((always_inline)) void f5_read(int64_t *y, const __m512i V0, const int P)
{
#ifndef CS_CT_EMULATE_AVX512
    /* Through memory: a store and two loads take no slot of the two
     * vector ports the arithmetic is bound by (an extract takes one or
     * two). The asm keeps the compiler from turning it back. */
    int64_t t[8] __attribute__((aligned(64)));
    __asm__("vmovdqa64 %1, %0" : "=m"(t) : "v"(V0));
    y[0] = t[1 + (P == 2)];
    if (P == 2)
        y[1] = t[3];
    return;
#endif
    if (P == 2) {
        const __m128i c = _mm512_extracti32x4_epi32(V0, 1);
        y[0] = _mm_cvtsi128_si64(c);
        y[1] = _mm_extract_epi64(c, 1);
    } else {
        y[0] = _mm_extract_epi64(_mm512_castsi512_si128(V0), 1);
    }
}

/* The rest of step i once its a*b products are in (VL, VH) and column
 * i+1 was read (y, its biases by): the q_i products, the window moved
 * down a digit, and the scalar chains to column i+1 and q_{i+1}. */
static inline __attribute__((always_inline)) void
f5_finish_step(const f5_st *st, const f5_mod *k, const int64_t *y, uint64_t by, size_t i,
               const int P, const size_t NV)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i qe0 = _mm512_set1_epi64((long long)(st->q[0] | F5_EXP52));
    const __m512i qe =
        P == 2 ? _mm512_mask_blend_epi64(0xAA, qe0, _mm512_set1_epi64((long long)(st->q[1] | F5_EXP52)))
               : qe0;
    const __m512d Q = _mm512_sub_pd(_mm512_castsi512_pd(qe), _mm512_set1_pd(0x1p52));
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++)
        st->VH[v] = _mm512_add_epi64(st->VH[v], f5_prod(&st->VL[v], st->M[v], Q));
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++) {
        const __m512i next = v + 1 < NV ? st->VL[v + 1] : zero;
        st->VL[v] = _mm512_add_epi64(P == 2 ? _mm512_alignr_epi64(next, st->VL[v], 2)
                                            : _mm512_alignr_epi64(next, st->VL[v], 1),
                                     st->VH[v]);
    }
#pragma GCC unroll 2
    for (int h = 0; h < P; h++) {
        const uint64_t q = st->q[h];
        const unsigned __int128 p0 = (unsigned __int128)k->ms0[h] * q;
        const unsigned __int128 p1 = (unsigned __int128)k->ms1[h] * q;
        /* Column i with lo(m_0 q_i) is a multiple of 2^52: its carry is
         * ceil(x / 2^52). */
        const int64_t c = (st->x[h] + (int64_t)F5_M52) >> 52;
        const size_t nx = P * (i + 1) + h; /* digit i+1, or past the end */
        const int64_t x = (int64_t)((uint64_t)y[h] - by) + c + (int64_t)(uint64_t)(p0 >> 64) +
                          (int64_t)((uint64_t)p1 >> 12) + st->pend[h] + st->lo[nx];
        st->pend[h] = (int64_t)(uint64_t)(p1 >> 64) + st->hi[nx];
        st->x[h] = x;
        st->q[h] = ((uint64_t)x * k->n0[h]) & F5_M52;
    }
}

/* r = the result digits from the window after IT steps (columns IT..2IT-1;
 * IT from the scalar), normalised, zero above digit IT-1 up to K. */
static inline __attribute__((always_inline)) void f5_out(uint64_t *r, const f5_st *st,
                                                         const int P, const size_t NV,
                                                         const size_t IT)
{
    const long K = (long)(8 * NV / P);
    uint64_t t[8 * F5_MAXNV] __attribute__((aligned(64)));
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++)
        _mm512_store_si512((__m512i *)(t + 8 * v), st->VL[v]);
    int64_t cy[2];
#pragma GCC unroll 2
    for (int h = 0; h < P; h++) {
        r[h] = (uint64_t)st->x[h] & F5_M52;
        cy[h] = (st->x[h] >> 52) + st->pend[h];
    }
    for (size_t j = 1; j < IT; j++) {
        const uint64_t bias = f5_bias_out(IT + j, IT, (size_t)K);
#pragma GCC unroll 2
        for (int h = 0; h < P; h++) {
            const int64_t s = (int64_t)(t[P * j + h] - bias) + cy[h];
            r[P * j + h] = (uint64_t)s & F5_M52;
            cy[h] = s >> 52;
        }
    }
    for (size_t j = P * IT; j < (size_t)(P * K); j++)
        r[j] = 0;
}

/* Digit i of each number (p interleaved for P = 2) in every lane pair, or
 * in every lane. */
static inline __m512i f5_digit(const void *p, size_t i, const int P)
{
    return P == 2 ? _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)((const uint64_t *)p + 2 * i)))
                  : _mm512_set1_epi64((long long)((const uint64_t *)p)[i]);
}

/* a as doubles without digit 0 (the scalar's), into A. */
static inline __attribute__((always_inline)) void f5_operand(__m512d *A, const uint64_t *a,
                                                             const int P, const size_t NV)
{
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++) {
        __m512i av = _mm512_loadu_si512((const __m512i *)(a + 8 * v));
        if (v == 0)
            av = _mm512_maskz_mov_epi64(P == 2 ? 0xFC : 0xFE, av);
        A[v] = f5_to_double(av);
    }
}

/* r = a*b/R' mod m (almost: below 2m) for P numbers in NV vectors of
 * which IT digits are used (R' = 2^(52 IT)); inputs below 2m in
 * normalised digits; r may alias a or b; also the squaring (b = a). A
 * squaring adding each cross product once (rows from the diagonal, the
 * doubled digit's 53rd bit added one column up, vectors below the
 * diagonal skipped) ran slower here: 320 against 294 reference cycles a
 * paired 1024-bit half on the Intel Xeon model 167, its fewer FMAs
 * outweighed by the correction's integer operations on the same two
 * vector ports. Step i adds a*b_i and q_i*m into
 * a window of columns i..i+K-1 (K = 8 NV / P digits) and moves it down
 * one digit. Column i+1 is read (y) after the step's a*b_i products and
 * before its q_i products; the products with a_0, m_0 and m_1 are left out
 * of the vectors and added in scalar (column i+1 gets lo(a_0 b_{i+1}),
 * hi(a_0 b_i), hi(m_0 q_i), lo(m_1 q_i), hi(m_1 q_{i-1})), so the q chain
 * waits on the vectors only through y. Every branch and index depends on
 * sizes only. */
static inline __attribute__((always_inline)) void
f5_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const f5_mod *k, const int P,
       const size_t NV, const size_t IT)
{
    const long K = (long)(8 * NV / P);
    F5_STATE;
    __m512d A[F5_MAXNV];
    double bd[8 * F5_MAXNV] __attribute__((aligned(64)));
    f5_operand(A, a, P, NV);
    const __m512d A0 = f5_to_double(f5_digit(a, 0, P));
#pragma GCC unroll 10
    for (size_t v = 0; v < NV; v++) {
        const __m512d bv = f5_to_double(_mm512_loadu_si512((const __m512i *)(b + 8 * v)));
        _mm512_store_si512((__m512i *)(bd + 8 * v), _mm512_castpd_si512(bv));
        /* a_0 b_j for every j, as signed integer parts: the scalar's. */
        __m512i l = _mm512_setzero_si512();
        const __m512i h = f5_prod(&l, bv, A0);
        _mm512_store_si512((__m512i *)(st.lo + 8 * v),
                           _mm512_add_epi64(l, _mm512_set1_epi64((long long)F5_BL)));
        _mm512_store_si512((__m512i *)(st.hi + 8 * v),
                           _mm512_sub_epi64(h, _mm512_set1_epi64((long long)F5_BH)));
    }
    st.lo[8 * NV] = st.lo[8 * NV + 1] = st.hi[8 * NV] = st.hi[8 * NV + 1] = 0;
    f5_start(&st, k, P, NV);
    for (size_t i = 0; i < IT; i++) {
        const __m512d B = _mm512_castsi512_pd(f5_digit(bd, i, P));
#pragma GCC unroll 10
        for (size_t v = 0; v < NV; v++)
            st.VH[v] = f5_prod(&st.VL[v], A[v], B);
        int64_t y[2];
        f5_read(y, st.VL[0], P);
        f5_finish_step(&st, k, y, f5_bias_read(i, (size_t)K), i, P, NV);
    }
    f5_out(r, &st, P, NV, IT);
}

/* In a source defining mul_nv(r, a, b, ctx, NV) (its multiplication for
 * NV vectors, inlined): the cs_bn_mul_fn for each NV from 2 to F5_MAXNV
 * and the table muls[NV] of them (NULL below 2), so that each size is
 * compiled with NV a constant. */
#define F5_MUL_NV(NV)                                                                       \
    static void mul_##NV(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                       \
        mul_nv(r, a, b, ctx, NV);                                                           \
    }
#define F5_MUL_TABLE                                                                        \
    F5_MUL_NV(2)                                                                            \
    F5_MUL_NV(3)                                                                            \
    F5_MUL_NV(4)                                                                            \
    F5_MUL_NV(5)                                                                            \
    F5_MUL_NV(6)                                                                            \
    F5_MUL_NV(7)                                                                            \
    F5_MUL_NV(8)                                                                            \
    F5_MUL_NV(9)                                                                            \
    F5_MUL_NV(10)                                                                           \
    static cs_bn_mul_fn *const muls[F5_MAXNV + 1] = {NULL,  NULL,  mul_2, mul_3, mul_4, mul_5, \
                                                     mul_6, mul_7, mul_8, mul_9, mul_10};

/* The 512-bit FMA kernel's paired arithmetic (fma512_x2.c): two halves of
 * one digit count, up to F5_MAXNV four-digit vectors, else its prepare
 * refuses. */
extern const cs_bn_pair_ops cs_fma512_pair;

#endif
