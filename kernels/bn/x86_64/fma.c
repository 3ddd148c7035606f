/* AVX2 + FMA kernel: 50-bit digits held exactly in doubles. Each product of
 * digits is split by FMAs against a biased constant into a high part rounded
 * to a multiple of 2^50 and an exact signed low part; both are read as
 * integers straight from the bits of the biased doubles and summed in 64-bit
 * lanes, the biases being taken off once at the end. Almost-Montgomery
 * product scanning by blocks of four columns (ps_core): aligned
 * accumulators, a squaring with each cross product once, only four q digits
 * a block scalar. (The column-serial shape it replaced was level at 1024 bits
 * and behind from 1536 once digits were 50 bits wide: docs/benchmarks.md.)
 * Built with -mavx2 -mfma; run only where AVX2 and FMA are present. */
#include "fma_core.h"

/* r = a*b/R' mod m (< 2m, normalised digits), D = iters digits in 4*nv
 * words. Columns are summed four at a time (block c: columns c..c+3) over
 * every product a_i b_j and q_i m_j landing there, with q_i from earlier
 * blocks; only the q digits of the block itself (a triangle of products
 * q_i m_j inside the block) are scalar. So the serial part per block is
 * four q digits, and the vector products of the next block do not wait on
 * it except for its last few rows. High parts stay in their own lanes (one
 * column up) until read; columns go to memory and the scalar parts read
 * them there. Loop bounds and every branch depend on sizes only. */
static inline __attribute__((always_inline)) void
ps_core(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t n0,
        const size_t nv, const size_t D, const int sq)
{
    const size_t K = 4 * nv;
    double ad[K] __attribute__((aligned(32)));
    double qd[K] __attribute__((aligned(32)));
    double Bp[K + 2 * PAD] __attribute__((aligned(32)));
    double Mp[K + 2 * PAD] __attribute__((aligned(32)));
    int64_t Lm[2 * K + 8] __attribute__((aligned(32)));
    int64_t Hm[2 * K + 12] __attribute__((aligned(32))); /* Hm[4 + col] */
    const __m256d zd = _mm256_setzero_pd();
    _mm256_store_pd(Bp, zd);
    _mm256_store_pd(Mp, zd);
    _mm256_store_pd(Bp + PAD + K, zd);
    _mm256_store_pd(Mp + PAD + K, zd);
    _mm256_store_si256((__m256i *)Hm, _mm256_setzero_si256());
#pragma GCC unroll 32
    for (size_t v = 0; v < nv; v++) {
        _mm256_store_pd(ad + 4 * v, to_double(_mm256_load_si256((const __m256i *)(a + 4 * v))));
        /* Squaring: B holds the doubled digits 2a_j (below 2^50, exact). */
        __m256d bv = to_double(_mm256_load_si256((const __m256i *)((sq ? a : b) + 4 * v)));
        _mm256_store_pd(Bp + PAD + 4 * v, sq ? _mm256_add_pd(bv, bv) : bv);
        _mm256_store_pd(Mp + PAD + 4 * v,
                        to_double(_mm256_load_si256((const __m256i *)(m + 4 * v))));
    }
    /* m_j << (64 - W): the high word of q times it is q m_j >> W, the low
     * word (q m_j mod 2^W) << (64 - W). */
    const uint64_t ms[4] = {m[0] << (64 - W), m[1] << (64 - W), m[2] << (64 - W),
                            m[3] << (64 - W)};
    const size_t cend = ((2 * D - 2) / 4 + 1) * 4; /* blocks up to column 2D-1 */
    int64_t carry = 0, fix[8] = {0};
    /* Blocks below cl hold the columns below D (the q digits): a chain
     * through each block's scalar part. Blocks from cl on depend only on
     * finished q digits; their a*b rows are done during the low blocks, as
     * work independent of the chain (there are at most as many). */
    const size_t cl = (D + 3) & ~(size_t)3;
    __m256i L = _mm256_setzero_si256(), H = _mm256_setzero_si256();
    size_t gl = 0, gh = 0;
    ab_rows(&L, &H, &L, &H, &gl, &gh, ad, Bp, 0, 0, 0, D, sq, 1);
    for (size_t c = 0; c < cl; c += 4) {
        /* Block c, last: the q rows from the previous block's digits. */
        {
            const size_t ilo = c + 1 > D ? c + 1 - D : 0, qhi = c < D ? c : D;
            const size_t lo = c >= 4 && c - 4 > ilo ? c - 4 : ilo;
            if (qhi > lo)
                prods(&L, &H, &L, &H, &gl, &gh, qd + lo, Mp + PAD + c - lo, 0, 0, qhi - lo, 1);
        }
        L = _mm256_sub_epi64(L, _mm256_set1_epi64x((long long)(gl * bits_of(BIAS_L))));
        H = _mm256_sub_epi64(H, _mm256_set1_epi64x((long long)(gh * bits_of(BIAS_H))));
        _mm256_store_si256((__m256i *)(Lm + c), L);
        _mm256_store_si256((__m256i *)(Hm + 4 + c), H);
        /* Block c+4 but its last q rows, and a high block's a*b rows, ahead
         * of block c's q digits in program order: their products keep the
         * FMA ports busy while the scalar chain below runs. */
        L = H = _mm256_setzero_si256();
        gl = gh = 0;
        if (c + 4 < cl) {
            const size_t n = c + 4, ilo = n + 1 > D ? n + 1 - D : 0;
            ab_rows(&L, &H, &L, &H, &gl, &gh, ad, Bp, 0, 0, n, D, sq, 1);
            if (c > ilo)
                prods(&L, &H, &L, &H, &gl, &gh, qd + ilo, Mp + PAD + n - ilo, 0, 0, c - ilo, 1);
        }
        /* Block c's q digits, and their products inside the block. */
        if (c + 4 <= D) {
            carry = q_block(qd + c, Lm + c, Hm + 4 + c - 1, carry, n0, ms);
            if (c + 4 == D)
                fix[0] += carry;
        } else {
            /* The block holding digit D-1 and columns above it (once). */
            int64_t ext[5] = {0, 0, 0, 0, 0};
            for (size_t k = 0; k < 4; k++) {
                const size_t col = c + k;
                const int64_t t = Lm[col] + Hm[4 + col - 1] + ext[k] + carry;
                if (col < D) {
                    const uint64_t q = ((uint64_t)t * n0) & MW;
                    qd[col] = (double)(int64_t)q;
                    for (size_t j = 1; j + k < 4; j++) {
                        unsigned __int128 p = (unsigned __int128)q * ms[j];
                        ext[k + j] += (int64_t)((uint64_t)p >> (64 - W));
                        ext[k + j + 1] += (int64_t)(uint64_t)(p >> 64);
                    }
                    carry = carry_of(t, q, ms[0]);
                } else {
                    fix[col - D] += ext[k] + carry;
                    carry = 0;
                }
            }
            fix[c + 4 - D] += carry + ext[4];
        }
        /* A high block's a*b rows: more work independent of the chain. */
        if (cl + c < cend) {
            __m256i LA = _mm256_setzero_si256(), HA = _mm256_setzero_si256();
            size_t al = 0, ah = 0;
            ab_rows(&LA, &HA, &LA, &HA, &al, &ah, ad, Bp, 0, 0, cl + c, D, sq, 1);
            LA = _mm256_sub_epi64(LA, _mm256_set1_epi64x((long long)(al * bits_of(BIAS_L))));
            HA = _mm256_sub_epi64(HA, _mm256_set1_epi64x((long long)(ah * bits_of(BIAS_H))));
            _mm256_store_si256((__m256i *)(Lm + cl + c), LA);
            _mm256_store_si256((__m256i *)(Hm + 4 + cl + c), HA);
        }
    }
    /* High blocks: their q rows, all digits known; no chain between them. */
    for (size_t c = cl; c < cend; c += 4) {
        const size_t ilo = c + 1 - D;
        L = _mm256_load_si256((const __m256i *)(Lm + c));
        H = _mm256_load_si256((const __m256i *)(Hm + 4 + c));
        gl = gh = 0;
        prods(&L, &H, &L, &H, &gl, &gh, qd + ilo, Mp + PAD + c - ilo, 0, 0, D - ilo, 1);
        L = _mm256_sub_epi64(L, _mm256_set1_epi64x((long long)(gl * bits_of(BIAS_L))));
        H = _mm256_sub_epi64(H, _mm256_set1_epi64x((long long)(gh * bits_of(BIAS_H))));
        _mm256_store_si256((__m256i *)(Lm + c), L);
        _mm256_store_si256((__m256i *)(Hm + 4 + c), H);
    }
    int64_t x = 0;
    for (size_t j = 0; j < D; j++) {
        const size_t col = D + j;
        int64_t t = Lm[col] + Hm[4 + col - 1] + x + (j < 8 ? fix[j] : 0);
        r[j] = (uint64_t)t & MW;
        x = t >> W;
    }
    for (size_t j = D; j < K; j++)
        r[j] = 0;
}

/* The squaring and the multiplication specialised to NV vectors, and to D
 * digits too where D is an expression of constants (with D fixed every
 * block's row ranges fold: 4-5% fewer cycles at 2048 bits, docs). */
#define PS_FIXED(TAG, NV, D)                                                               \
    static void pq_##TAG(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        ps_core(r, a, a, c->m, c->n0, NV, D, 1);                                          \
    }                                                                                      \
    static void ps_##TAG(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx) \
    {                                                                                      \
        const cs_bn_prep *c = ctx;                                                         \
        ps_core(r, a, b, c->m, c->n0, NV, D, 0);                                          \
    }
/* The digit counts of 1024-, 1536-, 2048-, 3072- and 4096-bit moduli (and
 * of those up to 49 bits shorter), the sizes RSA, DH and DSA use. */
PS_FIXED(6_21, 6, 21)
PS_FIXED(8_31, 8, 31)
PS_FIXED(11_41, 11, 41)
PS_FIXED(16_62, 16, 62)
PS_FIXED(21_82, 21, 82)
/* Other moduli of those vector counts. */
PS_FIXED(6, 6, c->iters)
PS_FIXED(8, 8, c->iters)
PS_FIXED(11, 11, c->iters)
PS_FIXED(16, 16, c->iters)
PS_FIXED(21, 21, c->iters)

/* The specialised pairs, the first match taken: nv vectors and d digits
 * (0: any). */
static const struct {
    size_t nv, d;
    cs_bn_mul_fn *mul, *sqr;
} fixed[] = {
    {6, 21, ps_6_21, pq_6_21},    {8, 31, ps_8_31, pq_8_31},    {11, 41, ps_11_41, pq_11_41},
    {16, 62, ps_16_62, pq_16_62}, {21, 82, ps_21_82, pq_21_82}, {6, 0, ps_6, pq_6},
    {8, 0, ps_8, pq_8},           {11, 0, ps_11, pq_11},        {16, 0, ps_16, pq_16},
    {21, 0, ps_21, pq_21},
};

/* Any other size: product scanning with a run-time vector count. */
static void ps_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    ps_core(r, a, b, c->m, c->n0, c->words / 4, c->iters, 0);
}

static void pq_any(uint64_t *r, const uint64_t *a, const uint64_t *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    ps_core(r, a, a, c->m, c->n0, c->words / 4, c->iters, 1);
}

/* Sets up c for mont with the multiplication specialised to its size. */
static int prepare(cs_bn_prep *c, const cs_mont *mont)
{
    if (xv_prepare(c, mont, W, ps_any, pq_any))
        return -1;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (fixed[i].nv == c->words / 4 && (!fixed[i].d || fixed[i].d == c->iters)) {
            c->mul = fixed[i].mul, c->sqr = fixed[i].sqr;
            break;
        }
    return 0;
}

XV_KERNEL(cs_bn_x86_fma, "x86_64-fma", CS_CPU_AVX2 | CS_CPU_FMA, FMA_MAX_BITS, prepare,
          &cs_fma_pair, 1);
