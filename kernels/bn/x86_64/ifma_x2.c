/* AVX-512 IFMA paired exponentiation: two independent modular
 * exponentiations with secret exponents (RSA's CRT halves) of the same
 * digit count in one instruction stream, the two halves' digits interleaved
 * in 512-bit vectors. Served: 20 digits all used (987..1038-bit halves,
 * RSA-2048), 32 digits with 29..32 used (1455..1662, RSA-3072) and 40
 * with 37..40 used (1871..2078, RSA-4096). Multiplication and squaring
 * follow ifma.c's column-serial almost-Montgomery arithmetic (the current
 * column in scalar), over fixed columns with pre-shifted operands; the
 * squaring adds each off-diagonal product once. One template (always
 * inlined, sizes constant) per size. Measured on Zen 4 (docs/benchmarks.md):
 * 187 us of CPU time per paired 1024-bit exponentiation, 1.10x libcrypto's
 * own paired IFMA code in `cryptoshim calibrate`; the vector pipes are the
 * limit there: every shuffle, blend or store taken out of a step showed in
 * the timing. On Zen 5 (full-width 512-bit units; tools/bench/bn_rate.c x2)
 * the pair is 1.4x OpenSSL 3.5's paired code at 1024 bits, 1.8x at 1536 and
 * 1.9x at 2048, where that code works on 256-bit vectors (IFMA issues
 * two a cycle at either width there). On that Zen 5 a step is bound by the
 * q chain's latency at 20 and 32 digits (IFMA 4 cycles, lane shuffles 4-5)
 * and by IFMA throughput at 40. Built with IFMA flags (mk/kernels_bn.mk);
 * called only when the CPU has AVX512IFMA. The ladder is the engine's
 * (../engine.c). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <string.h>

#include "x86_kernels.h"
#include "xv.h"

/* Loops over digit vectors and steps run unrolled, so every index and size
 * condition is a constant. The emulated build for the valgrind check
 * (mk/ctemu.mk) keeps them rolled: its intrinsics are plain C, and nine
 * sizes unrolled over them take gcc many minutes; the sanitizer builds
 * (CS_ROLL_LOOPS, mk/sanitize.mk) too, where clang's instrumentation of the
 * unrolled code took over ten minutes. The indices and conditions are the
 * same public ones either way. */
#define UNROLL_(x) _Pragma(#x)
#if defined(CS_CT_EMULATE_AVX512) || defined(CS_ROLL_LOOPS)
#define UNROLL(n) UNROLL_(GCC unroll 1)
#else
#define UNROLL(n) UNROLL_(GCC unroll n)
#endif

#define M52 ((1ull << 52) - 1)
#define MAXNV 10          /* vectors of 4 digits in the widest size */
#define MAXND (4 * MAXNV) /* its digits */

static inline uint64_t hi52(unsigned __int128 p) { return (uint64_t)(p >> 52); }

/* Both halves' numbers interleaved digit by digit: p[2j + h] is digit j of
 * half h. A 512-bit vector then holds digits 4v..4v+3 of both halves, so one
 * instruction serves the two. A number of NV vectors has 4 NV digits, of
 * which the low IT carry the value (R' = 2^(52 IT)); the rest are zero. */
typedef uint64_t pair[2 * MAXND] __attribute__((aligned(64)));

/* Products land at fixed column positions (acc[w] holds columns 4w..4w+3 of
 * both halves) instead of shifting the accumulators a digit every step: the
 * operands come pre-shifted. x[s] (s = 0..3) is the number moved up s digits,
 * in NV+1 vectors, so in step i = 4u+s the products with digit i of the other
 * operand go to acc[u + k] from x[s][k] (low halves) and from x[s+1] (high
 * halves, one column up; x[4] is x[0] one vector up). The shifts and adds of
 * a moving window cost as many vector slots as the IFMAs they would feed. */
typedef uint64_t shifted[4][(MAXNV + 1) * 8] __attribute__((aligned(64)));

struct pair_ctx;
typedef void pair_mul_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const struct pair_ctx *pc);

/* The two moduli and their constants, interleaved as above, and the
 * arithmetic specialised to their size. */
typedef struct pair_ctx {
    pair m;
    shifted ms; /* m moved up 0..3 digits */
    uint64_t n0[2];
    size_t nd; /* digits of a joined number's halves (4 NV) */
    pair_mul_fn *mul, *sqr;
} pair_ctx;

#define ODD 0xAA /* lanes of half 1 */

/* A vector with x0 in half 0's lanes and x1 in half 1's. */
static inline __m512i bcast2(uint64_t x0, uint64_t x1)
{
    return _mm512_mask_blend_epi64(ODD, _mm512_set1_epi64((long long)x0),
                                   _mm512_set1_epi64((long long)x1));
}

/* Digit j of both halves, from interleaved p, in every lane pair. */
static inline __m512i pair_digit(const uint64_t *p, size_t j)
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(p + 2 * j)));
}

/* Lanes 2, 3 and lanes 4, 5 of v. */
static inline __m128i lanes23(__m512i v)
{
    return _mm256_extracti128_si256(_mm512_castsi512_si256(v), 1);
}
static inline __m128i lanes45(__m512i v)
{
    return _mm256_castsi256_si128(_mm512_extracti64x4_epi64(v, 1));
}

/* Whether vector k of a number of IT digits moved up s digits holds any
 * of them (digits 4k-s..4k+3-s). */
static inline int nonzero(size_t k, size_t s, size_t IT)
{
    return 4 * k < IT + s;
}

/* Writes the result columns IT..2IT-1 (column IT in the scalar x0, x1,
 * the others in the accumulators acc) as normalised digits to r, zero
 * above digit IT-1 up to 4 NV. */
static inline __attribute__((always_inline)) void normalise(uint64_t *r, const __m512i *acc,
                                                            uint64_t x0, uint64_t x1,
                                                            const size_t NV, const size_t IT)
{
    /* Vectors w0..2NV-1: at most NV+1, as IT > 4 NV - 4. */
    uint64_t t[8 * (MAXNV + 1)] __attribute__((aligned(64)));
    const size_t w0 = IT / 4, c0 = 2 * (IT % 4);
UNROLL(16)
    for (size_t v = w0; v < 2 * NV; v++)
        _mm512_storeu_si512((__m512i *)(t + 8 * (v - w0)), acc[v]);
    t[c0] = x0, t[c0 + 1] = x1;
    uint64_t c0r = 0, c1r = 0;
UNROLL(40)
    for (size_t j = 0; j < IT; j++) {
        uint64_t s0 = t[c0 + 2 * j] + c0r, s1 = t[c0 + 2 * j + 1] + c1r;
        r[2 * j] = s0 & M52, r[2 * j + 1] = s1 & M52;
        c0r = s0 >> 52, c1r = s1 >> 52;
    }
UNROLL(8)
    for (size_t j = 2 * IT; j < 8 * NV; j++)
        r[j] = 0;
}

static inline uint64_t lo52(uint64_t a, uint64_t b) { return (a * b) & M52; }
static inline uint64_t hi52m(uint64_t a, uint64_t b) { return hi52((unsigned __int128)a * b); }

/* x = p (interleaved digits, NV vectors) moved up 0..3 digits. all = 0
 * skips what no multiplication step reads: x[0] (p itself is read
 * instead) and x[3]'s lowest vector. */
static inline __attribute__((always_inline)) void make_shifted(shifted x, const uint64_t *p,
                                                               const int all, const size_t NV)
{
    __m512i P[MAXNV + 1];
    const __m512i zero = _mm512_setzero_si512();
UNROLL(16)
    for (size_t v = 0; v < NV; v++)
        P[v] = _mm512_loadu_si512((const __m512i *)(p + 8 * v));
    P[NV] = zero;
UNROLL(16)
    for (size_t k = 0; k <= NV; k++) {
        const __m512i lo = k ? P[k - 1] : zero;
        if (all)
            _mm512_storeu_si512((__m512i *)(x[0] + 8 * k), P[k]);
        _mm512_storeu_si512((__m512i *)(x[1] + 8 * k), _mm512_alignr_epi64(P[k], lo, 6));
        _mm512_storeu_si512((__m512i *)(x[2] + 8 * k), _mm512_alignr_epi64(P[k], lo, 4));
        if (all || k)
            _mm512_storeu_si512((__m512i *)(x[3] + 8 * k), _mm512_alignr_epi64(P[k], lo, 2));
    }
}

/* acc + lo52(b*mem) and acc + hi52(b*mem), the vector operand read from
 * memory: the compiler would otherwise hold the shifted vectors in
 * registers and spill the accumulators. The AVX-512 emulation for the
 * valgrind check (mk/ctemu.mk) takes the intrinsics. */
#ifdef CS_CT_EMULATE_AVX512
#define MADD52_M(NAME, INSN, INTRIN)                                                       \
    static inline __m512i NAME(__m512i acc, __m512i b, const uint64_t *mem)                \
    {                                                                                      \
        return INTRIN(acc, _mm512_loadu_si512((const __m512i *)mem), b);                   \
    }
#else
#define MADD52_M(NAME, INSN, INTRIN)                                                       \
    static inline __m512i NAME(__m512i acc, __m512i b, const uint64_t *mem)                \
    {                                                                                      \
        __asm__(INSN " %2, %1, %0" : "+v"(acc) : "v"(b), "m"(*(const __m512i *)mem));      \
        return acc;                                                                        \
    }
#endif
MADD52_M(lo_m, "vpmadd52luq", _mm512_madd52lo_epu64)
MADD52_M(hi_m, "vpmadd52huq", _mm512_madd52hi_epu64)

/* Step i = 4u+s of a full product: x (IT digits) times digit i of the other
 * operand (in every lane pair of B), into acc. Columns i and i+1 are
 * followed in scalar by then (see amm2), so a vector that reaches no higher
 * column is skipped: the first low-half vector from s = 2 on, the first
 * high-half one at s = 2; so are vectors holding no digit. */
static inline __attribute__((always_inline)) void
step_full(__m512i *acc, size_t u, size_t s, const uint64_t *const x[4], __m512i B,
          const size_t NV, const size_t IT)
{
    const size_t s1 = (s + 1) & 3, off = (s + 1) >> 2;
UNROLL(16)
    for (size_t k = 0; k <= NV; k++)
        if (nonzero(k, s, IT) && (k || s < 2))
            acc[u + k] = lo_m(acc[u + k], B, x[s] + 8 * k);
UNROLL(16)
    for (size_t k = 0; k <= NV; k++)
        if (nonzero(k, s1, IT) && (k || s != 2))
            acc[u + off + k] = hi_m(acc[u + off + k], B, x[s1] + 8 * k);
}

/* Column c of both halves as two lanes. */
static inline __m128i column(const __m512i *acc, size_t c)
{
    const __m512i v = acc[c / 4];
    switch (c % 4) {
    case 0: return _mm256_castsi256_si128(_mm512_castsi512_si256(v));
    case 1: return lanes23(v);
    case 2: return lanes45(v);
    default: return _mm256_extracti128_si256(_mm512_extracti64x4_epi64(v, 1), 1);
    }
}

/* The q chain on the IFMA unit: the current columns of both halves in lanes
 * 0 and 1 of a 256-bit vector, with each half's n0, m_0 and m_1 beside
 * them, so no value makes a round trip through general registers (which
 * cost more than the three small IFMAs a step). */
typedef struct {
    __m256i n0, m0, m1, m2, mask;
} qconst;

static inline qconst make_qconst(const pair_ctx *pc)
{
    qconst k;
    k.n0 = _mm256_set_epi64x(0, 0, (long long)pc->n0[1], (long long)pc->n0[0]);
    k.m0 = _mm256_set_epi64x(0, 0, (long long)pc->m[1], (long long)pc->m[0]);
    k.m1 = _mm256_set_epi64x(0, 0, (long long)pc->m[3], (long long)pc->m[2]);
    k.m2 = _mm256_set_epi64x(0, 0, (long long)pc->m[5], (long long)pc->m[4]);
    k.mask = _mm256_set1_epi64x((long long)M52);
    return k;
}

/* q = x n0 mod 2^52 for the columns X (only X's low 52 bits matter). */
static inline __m256i col_q(__m256i X, const qconst *k)
{
    return _mm256_madd52lo_epu64(_mm256_setzero_si256(), X, k->n0);
}

/* The next columns: Y (all else that lands there) plus the carry out of X
 * once q m_0 cleared its low 52 bits, ceil(X / 2^52), plus hi(m_0 q) and
 * lo(m_1 q). */
static inline __m256i col_next(__m256i X, __m256i Q, __m256i Y, const qconst *k)
{
    const __m256i c = _mm256_srli_epi64(_mm256_add_epi64(X, k->mask), 52);
    const __m256i t = _mm256_madd52hi_epu64(_mm256_add_epi64(Y, c), k->m0, Q);
    return _mm256_add_epi64(t, _mm256_madd52lo_epu64(_mm256_setzero_si256(), k->m1, Q));
}

/* Step i's q products into column i+2, hi(m_1 q) + lo(m_2 q): with EARLY
 * that column is read from the vectors before they land there, and they
 * join it here. */
static inline __m256i col_ahead(__m256i Q, const qconst *k)
{
    return _mm256_add_epi64(_mm256_madd52hi_epu64(_mm256_setzero_si256(), k->m1, Q),
                            _mm256_madd52lo_epu64(_mm256_setzero_si256(), k->m2, Q));
}

/* Lanes 0, 1 of Q in every lane pair of a 512-bit vector. */
static inline __m512i spread(__m256i Q)
{
    return _mm512_broadcast_i32x4(_mm256_castsi256_si128(Q));
}

/* r = a*b/R' mod m (almost: below 2m) for both halves, inputs below 2m with
 * normalised digits, all interleaved, NV vectors of which IT digits used;
 * r may alias a or b. The column arithmetic is amm_core's in ifma.c (the
 * current column followed in scalar: see there), on both halves, over
 * fixed columns. */
static inline __attribute__((always_inline)) void
amm2(uint64_t *r, const uint64_t *a, const uint64_t *b, const pair_ctx *pc, const size_t NV,
     const size_t IT, const int EARLY)
{
    shifted xs;
    make_shifted(xs, a, 0, NV);
    const uint64_t *const xa[4] = {a, xs[1], xs[2], xs[3]};
    const uint64_t *const ms[4] = {pc->ms[0], pc->ms[1], pc->ms[2], pc->ms[3]};
    const __m512i zero = _mm512_setzero_si512();
    /* bt[i] (both halves): step i's b products into column i+1,
     * lo(a1 b_i) + hi(a0 b_i), and step i+1's into its lowest digit,
     * lo(a0 b_{i+1}): by vector for all steps at once, keeping the scalar
     * multiplier free for the q chain. */
    pair bt;
    {
        const __m512i A0 = bcast2(a[0], a[1]);
        const __m512i A1 = bcast2(a[2], a[3]);
UNROLL(16)
        for (size_t v = 0; v < NV; v++) {
            const __m512i Bv = _mm512_loadu_si512((const __m512i *)(b + 8 * v));
            const __m512i Bn = v + 1 < NV ? _mm512_loadu_si512((const __m512i *)(b + 8 * v + 8)) : zero;
            __m512i t = _mm512_madd52lo_epu64(zero, A1, Bv);
            t = _mm512_madd52hi_epu64(t, A0, Bv);
            t = _mm512_madd52lo_epu64(t, A0, _mm512_alignr_epi64(Bn, Bv, 2));
            _mm512_storeu_si512((__m512i *)(bt + 8 * v), t);
        }
    }
    __m512i acc[2 * MAXNV];
UNROLL(32)
    for (size_t w = 0; w < 2 * NV; w++)
        acc[w] = zero;
    const qconst kq = make_qconst(pc);
    __m256i X = _mm256_set_epi64x(0, 0, (long long)((a[1] * b[1]) & M52),
                                  (long long)((a[0] * b[0]) & M52));
    __m256i ahead = _mm256_setzero_si256(); /* column i+1 from steps before i */
    __m256i qa = _mm256_setzero_si256();    /* with EARLY, q_{i-1}'s part of it */
UNROLL(16)
    for (size_t u = 0; u < NV; u++) {
UNROLL(4)
        for (size_t s = 0; s < 4; s++) {
            const size_t i = 4 * u + s;
            if (i >= IT)
                break;
            const __m256i Q = col_q(X, &kq);
            step_full(acc, u, s, xa, pair_digit(b, i), NV, IT);
            /* Column i+1: earlier steps, this step's b and q products, the
             * next step's b product into its lowest digit. */
            const __m256i Y = _mm256_add_epi64(
                _mm256_add_epi64(ahead, qa),
                _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(bt + 2 * i))));
            if (EARLY)
                ahead = _mm256_zextsi128_si256(column(acc, i + 2));
            step_full(acc, u, s, ms, spread(Q), NV, IT);
            if (EARLY)
                qa = col_ahead(Q, &kq);
            else
                ahead = _mm256_zextsi128_si256(column(acc, i + 2));
            X = col_next(X, Q, Y, &kq);
        }
    }
    const __m128i x = _mm256_castsi256_si128(X);
    normalise(r, acc, (uint64_t)_mm_cvtsi128_si64(x), (uint64_t)_mm_extract_epi64(x, 1), NV, IT);
}

/* a_i in the lanes of positions above p of the vector holding p, 0 in the
 * others (a squaring row's off-diagonal products x > i). */
static inline __m512i above(size_t p, __m512i AI)
{
    return _mm512_mask_blend_epi64((__mmask8)(0xFFu << (2 * (p % 4) + 2)), _mm512_setzero_si512(),
                                   AI);
}

/* Column c of a square: below column 8 its off-diagonal part (accs,
 * counted twice) is added here, above it is in acc already. */
static inline __m256i column_sq(const __m512i *acc, const __m512i *accs, size_t c)
{
    const __m128i col = c < 8 ? _mm_add_epi64(_mm_slli_epi64(column(accs, c), 1), column(acc, c))
                              : column(acc, c);
    return _mm256_zextsi128_si256(col);
}

/* r = a^2/R' mod m (almost) for both halves, interleaved, over fixed
 * columns as in amm2: the squares a_x^2 go in first, all at once; row i adds
 * a_i a_x for x > i once, into an accumulator that counts twice (added
 * doubled wherever a column is read), so no operand needs a 53rd bit; the q
 * products are amm2's. About 18 IFMAs a step against amm2's 23 at 20
 * digits. */
static inline __attribute__((always_inline)) void
asqr2(uint64_t *r, const uint64_t *a, const pair_ctx *pc, const size_t NV, const size_t IT,
      const int EARLY)
{
    shifted xs;
    make_shifted(xs, a, 0, NV);
    const uint64_t *const xa[4] = {a, xs[1], xs[2], xs[3]};
    const uint64_t *const ms[4] = {pc->ms[0], pc->ms[1], pc->ms[2], pc->ms[3]};
    const __m512i zero = _mm512_setzero_si512();
    /* acc: the squares, then the q products; accs: the off-diagonal half. */
    __m512i acc[2 * MAXNV], accs[2 * MAXNV];
    {
        /* Column 2x gets lo(a_x^2), column 2x+1 hi(a_x^2): vector w holds
         * digits 2w and 2w+1's, from digit vector w/2. */
        const __m512i pick0 = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
        const __m512i pick1 = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
UNROLL(16)
        for (size_t v = 0; v < NV; v++) {
            const __m512i A = _mm512_loadu_si512((const __m512i *)(a + 8 * v));
            const __m512i L = _mm512_madd52lo_epu64(zero, A, A);
            const __m512i H = _mm512_madd52hi_epu64(zero, A, A);
            acc[2 * v] = _mm512_permutex2var_epi64(L, pick0, H);
            acc[2 * v + 1] = _mm512_permutex2var_epi64(L, pick1, H);
        }
    }
UNROLL(32)
    for (size_t w = 0; w < 2 * NV; w++)
        accs[w] = zero;
    const uint64_t a00 = a[0], a01 = a[1], a10 = a[2], a11 = a[3];
    const qconst kq = make_qconst(pc);
    __m256i X = _mm256_set_epi64x(0, 0, (long long)lo52(a01, a01), (long long)lo52(a00, a00));
    /* Column 1 in full: row 0's a_1 a_0 twice and hi(a_0^2). */
    const __m256i col1 = _mm256_set_epi64x(0, 0, (long long)(2 * lo52(a11, a01) + hi52m(a01, a01)),
                                           (long long)(2 * lo52(a10, a00) + hi52m(a00, a00)));
    __m256i ahead = _mm256_setzero_si256(), qa = _mm256_setzero_si256();
UNROLL(16)
    for (size_t u = 0; u < NV; u++) {
UNROLL(4)
        for (size_t s = 0; s < 4; s++) {
            const size_t i = 4 * u + s;
            if (i >= IT)
                break;
            const __m256i Q = col_q(X, &kq);
            const __m512i AI = pair_digit(a, i);
            /* Low halves from x[s]: digit x at position x+s, x > i above
             * position p = i+s (vector p/4). */
            const size_t p = i + s, k0 = p / 4;
            accs[u + k0] = lo_m(accs[u + k0], above(p, AI), xa[s] + 8 * k0);
UNROLL(16)
            for (size_t k = 1; k <= NV; k++)
                if (k > k0 && nonzero(k, s, IT))
                    accs[u + k] = lo_m(accs[u + k], AI, xa[s] + 8 * k);
            /* High halves one column up, from x[s+1]. */
            const size_t s1 = (s + 1) & 3, off = (s + 1) >> 2;
            const size_t p1 = i + s1, k1 = p1 / 4;
            accs[u + off + k1] = hi_m(accs[u + off + k1], above(p1, AI), xa[s1] + 8 * k1);
UNROLL(16)
            for (size_t k = 1; k <= NV; k++)
                if (k > k1 && nonzero(k, s1, IT))
                    accs[u + off + k] = hi_m(accs[u + off + k], AI, xa[s1] + 8 * k);
            /* Column c's off-diagonal products come from rows up to
             * (c-1)/2: vector w (columns 4w..4w+3) is complete after row
             * 2w+1, and from w = 2 on, that is before any of its columns
             * is read; it is then added doubled into acc once, not
             * column by column. */
            if (i >= 5 && i % 2) {
                const size_t w = (i - 1) / 2;
                acc[w] = _mm512_add_epi64(acc[w], _mm512_slli_epi64(accs[w], 1));
            }
            const __m256i Y = i == 0 ? col1 : _mm256_add_epi64(ahead, qa);
            if (EARLY)
                ahead = column_sq(acc, accs, i + 2);
            step_full(acc, u, s, ms, spread(Q), NV, IT);
            if (EARLY)
                qa = col_ahead(Q, &kq);
            else
                ahead = column_sq(acc, accs, i + 2);
            X = col_next(X, Q, Y, &kq);
        }
    }
    /* The vector the loop's odd rows did not add (IT odd), read only by
     * normalise: off-diagonal products end at column 2 IT - 2 (the high
     * half of a_{IT-2} a_{IT-1}). */
UNROLL(8)
    for (size_t w = IT / 2 > 2 ? IT / 2 : 2; 4 * w <= 2 * IT - 2; w++)
        acc[w] = _mm512_add_epi64(acc[w], _mm512_slli_epi64(accs[w], 1));
    const __m128i x = _mm256_castsi256_si128(X);
    normalise(r, acc, (uint64_t)_mm_cvtsi128_si64(x), (uint64_t)_mm_extract_epi64(x, 1), NV, IT);
}

/* The 64 bytes at p as a vector, by a plain load the compiler cannot fold
 * into a masked operation. */
static inline __m512i load_full(const uint64_t *p)
{
#ifdef CS_CT_EMULATE_AVX512
    return _mm512_loadu_si512((const __m512i *)p);
#else
    __m512i v;
    __asm__("vmovdqu64 %1, %0" : "=v"(v) : "m"(*(const __m512i *)p));
    return v;
#endif
}

/* out = entry idx[0] of half 0 and entry idx[1] of half 1 of the
 * interleaved table, reading every entry under lane masks: the indices are
 * secret (cs_bn_select_fn; words is 8 NV). */
static inline __attribute__((always_inline)) void
select_nv(cs_limb *out, const cs_limb *tab, size_t entries, const unsigned *idx, const size_t NV)
{
    const __m512i want = bcast2(idx[0], idx[1]);
    __m512i acc[MAXNV];
UNROLL(16)
    for (size_t v = 0; v < NV; v++)
        acc[v] = _mm512_setzero_si512();
    for (size_t j = 0; j < entries; j++) {
        /* Every entry is loaded in full, then blended in under the lane mask:
         * one vector operation a vector, the loads independent of the mask. */
        const __mmask8 hit = _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((long long)j), want);
        const uint64_t *t = tab + j * 8 * NV;
UNROLL(16)
        for (size_t v = 0; v < NV; v++)
            acc[v] = _mm512_mask_blend_epi64(hit, acc[v], load_full(t + 8 * v));
    }
UNROLL(16)
    for (size_t v = 0; v < NV; v++)
        _mm512_storeu_si512((__m512i *)(out + 8 * v), acc[v]);
}

/* cs_bn_select_fn for the pair, its size from words (public). */
static void select2(cs_limb *out, const cs_limb *tab, size_t entries, size_t words,
                    const unsigned *idx)
{
    switch (words / 8) {
    case 5: select_nv(out, tab, entries, idx, 5); break;
    case 8: select_nv(out, tab, entries, idx, 8); break;
    default: select_nv(out, tab, entries, idx, 10); break;
    }
}

/* The pair's numbers: joined by interleaving the halves' digits. */
static void join(cs_limb *p, const cs_limb *d0, const cs_limb *d1, const void *ctx)
{
    xv_interleave(p, d0, d1, ((const pair_ctx *)ctx)->nd);
}

static void split(cs_limb *d0, cs_limb *d1, const cs_limb *p, const void *ctx)
{
    xv_deinterleave(d0, d1, p, ((const pair_ctx *)ctx)->nd);
}

/* One size's multiplication and squaring (pair_mul_fn): NV vectors, IT
 * digits used; EARLY_MUL, EARLY_SQR: read column i+2 before step i's q
 * products (their part joins in scalar, col_ahead), so the read does not
 * wait on q_i. Measured on this Zen 5 (family 26), core cycles: squaring
 * 406 -> 371 at 1024 bits, 624 -> 612 at 1536, 935 -> 982 at 2048 (the
 * extra IFMAs then cost more than the wait); multiplication within 1%. */
#define PAIR_SIZE(NV, IT, EARLY_MUL, EARLY_SQR)                                            \
    static void amm_##NV##_##IT(uint64_t *r, const uint64_t *a, const uint64_t *b,         \
                                const pair_ctx *pc)                                        \
    {                                                                                      \
        amm2(r, a, b, pc, NV, IT, EARLY_MUL);                                              \
    }                                                                                      \
    static void asqr_##NV##_##IT(uint64_t *r, const uint64_t *a, const uint64_t *b,        \
                                 const pair_ctx *pc)                                       \
    {                                                                                      \
        (void)b;                                                                           \
        asqr2(r, a, pc, NV, IT, EARLY_SQR);                                                \
    }
PAIR_SIZE(5, 20, 1, 1)
PAIR_SIZE(8, 29, 0, 1)
PAIR_SIZE(8, 30, 0, 1)
PAIR_SIZE(8, 31, 0, 1)
PAIR_SIZE(8, 32, 0, 1)
PAIR_SIZE(10, 37, 0, 0)
PAIR_SIZE(10, 38, 0, 0)
PAIR_SIZE(10, 39, 0, 0)
PAIR_SIZE(10, 40, 0, 0)

/* The sizes served: digit vectors, digits used, and their arithmetic. */
static const struct {
    size_t nv, it;
    pair_mul_fn *mul, *sqr;
} sizes[] = {
#define S(NV, IT) {NV, IT, amm_##NV##_##IT, asqr_##NV##_##IT}
    S(5, 20), S(8, 29), S(8, 30), S(8, 31), S(8, 32),
    S(10, 37), S(10, 38), S(10, 39), S(10, 40),
#undef S
};

/* Fills the pair context from the halves' IFMA contexts when both have one
 * of the sizes served (the same digit count and digits used); returns the
 * joined words, or 0. */
static size_t prepare2(void *ctx, const cs_bn_prep *p0, const cs_bn_prep *p1)
{
    pair_ctx *pc = ctx;
    if (p0->words != p1->words || p0->iters != p1->iters)
        return 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (p0->words != 4 * sizes[i].nv || p0->iters != sizes[i].it)
            continue;
        pc->nd = p0->words;
        pc->mul = sizes[i].mul;
        pc->sqr = sizes[i].sqr;
        join(pc->m, p0->m, p1->m, pc);
        memset(pc->ms, 0, sizeof pc->ms);
        switch (sizes[i].nv) {
        case 5: make_shifted(pc->ms, pc->m, 1, 5); break;
        case 8: make_shifted(pc->ms, pc->m, 1, 8); break;
        default: make_shifted(pc->ms, pc->m, 1, 10); break;
        }
        pc->n0[0] = p0->n0, pc->n0[1] = p1->n0;
        return 2 * pc->nd;
    }
    return 0;
}

/* The engine's paired multiplication and squaring on the context. */
static void mul2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    pc->mul(r, a, b, pc);
}

static void sqr2(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const pair_ctx *pc = ctx;
    pc->sqr(r, a, b, pc);
}

CS_BN_PAIR_OPS(cs_ifma_pair, pair_ctx, prepare2, join, split, mul2, sqr2, select2);
