/* AVX2 forward and inverse NTT over Z_q[X]/(X^256+1), eight coefficients
 * per register, Montgomery twiddles with precomputed q^-1 multiples, lazy
 * reduction (the only reduction is the Montgomery one of each twiddle
 * product, as in the portable code, so the same bounds hold). Layers are
 * merged: pass A runs the three widest layers on 8 registers at once, pass
 * B the other five on one 64-coefficient block, the last three after an
 * 8x8 transposition that the output keeps (see avx2.h, "NTT order").
 * Inside the transforms most registers spend some layers in a swapped
 * lane order (montmul_x), which takes one instruction off most products;
 * inputs, outputs and every stored intermediate follow the layout above
 * or, between passes, a fixed one the next pass expects. Words are those
 * of the portable code. */
#include "avx2.h"
#include "ntt_avx2_zetas.h"

/* The odd 32-bit lanes of x copied into the even ones below them (the
 * operand halves vpmuldq reads). A shuffle-port instruction: the 64-bit
 * shifts avx2_montmul uses for this run on the two ports that also run
 * vpmuldq, and moving the lanes on the shuffle port instead took a fifth
 * of the inverse NTT's cycles off. (Now the transforms are bound by all
 * three vector ALU ports together, so what counts is the number of
 * instructions besides the multiplications.) */
static inline __m256i odd_lanes(__m256i x)
{
    return _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x)));
}

/* GCC: the transforms (up to the end of cs_mldsa_invntt_avx2) are
 * scheduled before register allocation with an eye on register pressure.
 * They keep eight data registers, q and four twiddle operands live in
 * sixteen; without this GCC spilled about a hundred values per transform
 * (and the swapped lane orders, below, lost to the longer chains through
 * the spills what they saved). The products after them do not gain;
 * helpers they share are defined above, since GCC does not inline a
 * function compiled with other options into them. */
#if defined(__GNUC__) && !defined(__clang__)
#define NTT_SCHED 1
#pragma GCC push_options
#pragma GCC optimize("-fschedule-insns", "-fsched-pressure")
#endif

/* The two halves of a Montgomery product a * z * 2^-32 mod q: in the odd
 * 32-bit lanes of *re the results of a's even lanes, in those of *ro the
 * results of its odd lanes (|each| < q for |a*z| < q * 2^31). ze/zte hold
 * the even lanes' constants, zo/zto the odd lanes' in the even lanes (a
 * broadcast constant serves as both); zt = z * q^-1 mod 2^32. */
static inline void mont_halves(__m256i a, __m256i ze, __m256i zte, __m256i zo, __m256i zto,
                               __m256i *re, __m256i *ro)
{
    const __m256i q = _mm256_set1_epi32(AVX2_Q);
    __m256i ao = odd_lanes(a);
    __m256i pe = _mm256_mul_epi32(a, ze);
    __m256i po = _mm256_mul_epi32(ao, zo);
    __m256i me = _mm256_mul_epi32(_mm256_mul_epi32(a, zte), q);
    __m256i mo = _mm256_mul_epi32(_mm256_mul_epi32(ao, zto), q);
    *re = _mm256_sub_epi32(pe, me);
    *ro = _mm256_sub_epi32(po, mo);
}

/* avx2_montmul (same contract, same words) with its lane moves on the
 * shuffle port (see odd_lanes). */
static inline __m256i montmul(__m256i a, __m256i ze, __m256i zte, __m256i zo, __m256i zto)
{
    __m256i re, ro;
    mont_halves(a, ze, zte, zo, zto, &re, &ro);
    return _mm256_blend_epi32(odd_lanes(re), ro, 0xAA);
}

/* The same product with lanes 1 and 2 of each 128-bit half exchanged (the
 * lane order called P below): one vshufps joins the halves where montmul
 * needs a shuffle and a blend. P is an involution, so an input in order P
 * gives its product back in lane order. */
static inline __m256i montmul_x(__m256i a, __m256i ze, __m256i zte, __m256i zo, __m256i zto)
{
    __m256i re, ro;
    mont_halves(a, ze, zte, zo, zto, &re, &ro);
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(re), _mm256_castsi256_ps(ro),
                                                 _MM_SHUFFLE(3, 1, 3, 1)));
}

/* Lane order P <-> lane order (one in-lane shuffle). */
static inline __m256i unswap(__m256i x)
{
    return _mm256_shuffle_epi32(x, _MM_SHUFFLE(3, 1, 2, 0));
}

/* Gentleman-Sande butterfly with a broadcast twiddle; b comes out in the
 * other lane order (a keeps its order). */
static inline void gs_bc_x(__m256i *a, __m256i *b, __m256i z, __m256i zt)
{
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = montmul_x(_mm256_sub_epi32(t, *b), z, zt, z, zt);
}

/* p, hidden from constant folding: GCC turns a broadcast of a known
 * table entry into an immediate moved through a general register (two
 * shuffle-port instructions per constant, about 6% of the inverse NTT's
 * vector instructions), where a broadcast load costs a load port only. */
static inline const int32_t *opaque(const int32_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

/* Broadcast constants of layer index k (zs, zt: opaque copies of the
 * scalar tables, in scope where these are used). */
#define FZ(k) _mm256_set1_epi32(zs[k]), _mm256_set1_epi32(zt[k])
#define IZ(k) _mm256_set1_epi32(zs[k]), _mm256_set1_epi32(zt[k])
/* The four operands of a per-lane twiddle set (ntt_avx2_zetas.h). */
#define SET(s) avx2_load((s)[0]), avx2_load((s)[1]), avx2_load((s)[2]), avx2_load((s)[3])

/* Cooley-Tukey butterflies, with a broadcast twiddle or a per-lane twiddle
 * set s, whose product swaps b's lane order: a must be in the order b is
 * not, and both outputs come out in a's order. */
static inline void ct_bc_x(__m256i *a, __m256i *b, __m256i z, __m256i zt)
{
    __m256i t = montmul_x(*b, z, zt, z, zt);
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

static inline void ct_set_x(__m256i *a, __m256i *b, const int32_t (*s)[8])
{
    __m256i t = montmul_x(*b, SET(s));
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

/* Gentleman-Sande butterflies with a per-lane twiddle set s: gs_set keeps
 * b's lane order, gs_set_x swaps it (a keeps its order in both). */
static inline void gs_set(__m256i *a, __m256i *b, const int32_t (*s)[8])
{
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = montmul(_mm256_sub_epi32(t, *b), SET(s));
}

static inline void gs_set_x(__m256i *a, __m256i *b, const int32_t (*s)[8])
{
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = montmul_x(_mm256_sub_epi32(t, *b), SET(s));
}

/* Loads / stores the eight registers r0..r7 from p + 8*(base + step*i). */
#define LOAD8(p, base, step)                                                            \
    r0 = avx2_load((p) + 8 * ((base) + 0 * (step))), r1 = avx2_load((p) + 8 * ((base) + 1 * (step))), \
    r2 = avx2_load((p) + 8 * ((base) + 2 * (step))), r3 = avx2_load((p) + 8 * ((base) + 3 * (step))), \
    r4 = avx2_load((p) + 8 * ((base) + 4 * (step))), r5 = avx2_load((p) + 8 * ((base) + 5 * (step))), \
    r6 = avx2_load((p) + 8 * ((base) + 6 * (step))), r7 = avx2_load((p) + 8 * ((base) + 7 * (step)))
#define STORE8(p, base, step)                                                           \
    avx2_store((p) + 8 * ((base) + 0 * (step)), r0), avx2_store((p) + 8 * ((base) + 1 * (step)), r1), \
    avx2_store((p) + 8 * ((base) + 2 * (step)), r2), avx2_store((p) + 8 * ((base) + 3 * (step)), r3), \
    avx2_store((p) + 8 * ((base) + 4 * (step)), r4), avx2_store((p) + 8 * ((base) + 5 * (step)), r5), \
    avx2_store((p) + 8 * ((base) + 6 * (step)), r6), avx2_store((p) + 8 * ((base) + 7 * (step)), r7)

/* Pass A of the forward NTT (layers len 128, 64, 32) on the registers of
 * column m, m + 4, ..., m + 28. Every product swaps the lane order, so the
 * operands of each butterfly must be in opposite orders: four registers are
 * swapped after the load, and all eight leave in r0's order, which is P
 * when flip (pass B wants columns 1 and 2 in order P). */
static inline __attribute__((always_inline)) void fwd_head(int32_t *a, unsigned m, int flip)
{
    const int32_t *zs = opaque(zeta_fwd_sc), *zt = opaque(zeta_fwd_sc_tw);
    __m256i r0, r1, r2, r3, r4, r5, r6, r7;
    LOAD8(a, m, 4);
    if (flip)
        r0 = unswap(r0), r3 = unswap(r3), r5 = unswap(r5), r6 = unswap(r6);
    else
        r1 = unswap(r1), r2 = unswap(r2), r4 = unswap(r4), r7 = unswap(r7);
    ct_bc_x(&r0, &r4, FZ(1)), ct_bc_x(&r1, &r5, FZ(1));
    ct_bc_x(&r2, &r6, FZ(1)), ct_bc_x(&r3, &r7, FZ(1));
    ct_bc_x(&r0, &r2, FZ(2)), ct_bc_x(&r1, &r3, FZ(2));
    ct_bc_x(&r4, &r6, FZ(3)), ct_bc_x(&r5, &r7, FZ(3));
    ct_bc_x(&r0, &r1, FZ(4)), ct_bc_x(&r2, &r3, FZ(5));
    ct_bc_x(&r4, &r5, FZ(6)), ct_bc_x(&r6, &r7, FZ(7));
    STORE8(a, m, 4);
}

/* Forward NTT; output in the transposed-block order of avx2.h. Each layer
 * adds at most q to the bound: |out| < |in| + 8q. The eight working
 * registers are named variables so that they stay in registers. Every
 * product swaps its register's lane order (montmul_x), which the
 * butterflies allow where their two operands are in opposite orders: the
 * orders are set up by four swaps per group of eight registers and undone
 * by the butterflies themselves (see fwd_head; pass B's blocks arrive with
 * registers 1, 2, 5, 6 swapped, and leave all in lane order). */
void cs_mldsa_ntt_avx2(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    const int32_t *zs = opaque(zeta_fwd_sc), *zt = opaque(zeta_fwd_sc_tw);
    __m256i r0, r1, r2, r3, r4, r5, r6, r7;
    for (unsigned m = 0; m < 4; m += 3)
        fwd_head(a, m, 0);
    for (unsigned m = 1; m < 3; m++)
        fwd_head(a, m, 1);
    /* Pass B: layers len 16, 8, then transposed len 4, 2, 1, per block. */
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = a + 64 * b;
        const int32_t(*z)[4][8] = zeta_fwd_set[b];
        LOAD8(blk, 0, 1);
        ct_bc_x(&r0, &r2, FZ(8 + 2 * b)), ct_bc_x(&r1, &r3, FZ(8 + 2 * b));
        ct_bc_x(&r4, &r6, FZ(9 + 2 * b)), ct_bc_x(&r5, &r7, FZ(9 + 2 * b));
        ct_bc_x(&r0, &r1, FZ(16 + 4 * b)), ct_bc_x(&r2, &r3, FZ(17 + 4 * b));
        ct_bc_x(&r4, &r5, FZ(18 + 4 * b)), ct_bc_x(&r6, &r7, FZ(19 + 4 * b));
        AVX2_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7);
        /* the products' operands r4 and r7 in P, r5 and r6 in lane order */
        r1 = unswap(r1), r2 = unswap(r2), r4 = unswap(r4), r7 = unswap(r7);
        ct_set_x(&r0, &r4, z[1]), ct_set_x(&r1, &r5, z[0]);
        ct_set_x(&r2, &r6, z[0]), ct_set_x(&r3, &r7, z[1]);
        ct_set_x(&r0, &r2, z[3]), ct_set_x(&r1, &r3, z[2]);
        ct_set_x(&r4, &r6, z[5]), ct_set_x(&r5, &r7, z[4]);
        ct_set_x(&r0, &r1, z[6]), ct_set_x(&r2, &r3, z[7]);
        ct_set_x(&r4, &r5, z[8]), ct_set_x(&r6, &r7, z[9]);
        STORE8(blk, 0, 1);
    }
}

/* Pass 2 of the inverse NTT (layers len 32, 64, 128 and the scaling) on
 * the eight registers of column m: registers in order P when flip, else
 * in lane order (pass 1 leaves columns 1 and 2 in order P). Every product
 * but the last layer's swaps its register's order; the last layer swaps
 * exactly the registers that are in order P, so all leave in lane order. */
static inline __attribute__((always_inline)) void inv_tail(int32_t *a, unsigned m, int flip)
{
    __m256i r0, r1, r2, r3, r4, r5, r6, r7;
    const int32_t *zs = opaque(zeta_inv_sc), *zt = opaque(zeta_inv_sc_tw);
    LOAD8(a, m, 4);
    gs_bc_x(&r0, &r1, IZ(7)), gs_bc_x(&r2, &r3, IZ(6));
    gs_bc_x(&r4, &r5, IZ(5)), gs_bc_x(&r6, &r7, IZ(4));
    gs_bc_x(&r0, &r2, IZ(3)), gs_bc_x(&r1, &r3, IZ(3));
    gs_bc_x(&r4, &r6, IZ(2)), gs_bc_x(&r5, &r7, IZ(2));
    /* now r_i is in order P iff flip ^ parity(i & 3) */
    const int32_t *fc = opaque(inv_scale);
    const __m256i f = _mm256_set1_epi32(fc[0]), ft = _mm256_set1_epi32(fc[1]);
    const __m256i fz = _mm256_set1_epi32(fc[2]), fzt = _mm256_set1_epi32(fc[3]);
#define LAST(x, y, swap)                                                                \
    do {                                                                                \
        __m256i t_ = x;                                                                 \
        if (swap) {                                                                     \
            x = montmul_x(_mm256_add_epi32(t_, y), f, ft, f, ft);                       \
            y = montmul_x(_mm256_sub_epi32(t_, y), fz, fzt, fz, fzt);                   \
        } else {                                                                        \
            x = montmul(_mm256_add_epi32(t_, y), f, ft, f, ft);                         \
            y = montmul(_mm256_sub_epi32(t_, y), fz, fzt, fz, fzt);                     \
        }                                                                               \
    } while (0)
    LAST(r0, r4, flip);
    LAST(r1, r5, !flip);
    LAST(r2, r6, !flip);
    LAST(r3, r7, flip);
#undef LAST
    STORE8(a, m, 4);
}

/* Inverse NTT from the transposed-block order, times 2^32 (the 1/256
 * scaling and the Montgomery factor folded into the last layer). Sums
 * double per layer: |in| < q keeps them below 256q < 2^31. The products
 * are the portable code's, word for word; most of them come out in lane
 * order P (montmul_x, one instruction cheaper), tracked per register:
 * sums keep their operands' order, and the two operands of a butterfly
 * always share one. */
void cs_mldsa_invntt_avx2(cs_mldsa_poly *p)
{
    int32_t *a = p->c;
    const int32_t *zs = opaque(zeta_inv_sc), *zt = opaque(zeta_inv_sc_tw);
    __m256i r0, r1, r2, r3, r4, r5, r6, r7;
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = a + 64 * b;
        const int32_t(*z)[4][8] = zeta_inv_set[b];
        LOAD8(blk, 0, 1);
        /* len 1: r1, r3, r5, r7 go to order P */
        gs_set_x(&r0, &r1, z[0]), gs_set_x(&r2, &r3, z[1]);
        gs_set_x(&r4, &r5, z[2]), gs_set_x(&r6, &r7, z[3]);
        /* len 2: the P pairs take their twiddles in order P; r1, r2, r5, r6 in P after */
        gs_set_x(&r0, &r2, z[4]), gs_set_x(&r1, &r3, z[5]);
        gs_set_x(&r4, &r6, z[6]), gs_set_x(&r5, &r7, z[7]);
        /* len 4: r5, r6 swap back, r4, r7 keep lane order, r1, r2 are swapped back */
        gs_set(&r0, &r4, z[8]), gs_set_x(&r1, &r5, z[9]);
        gs_set_x(&r2, &r6, z[9]), gs_set(&r3, &r7, z[8]);
        r1 = unswap(r1), r2 = unswap(r2);
        AVX2_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7);
        /* len 8, 16: r1, r2, r5, r6 leave in order P (columns 1, 2, 5, 6) */
        gs_bc_x(&r0, &r1, IZ(31 - 4 * b)), gs_bc_x(&r2, &r3, IZ(30 - 4 * b));
        gs_bc_x(&r4, &r5, IZ(29 - 4 * b)), gs_bc_x(&r6, &r7, IZ(28 - 4 * b));
        gs_bc_x(&r0, &r2, IZ(15 - 2 * b)), gs_bc_x(&r1, &r3, IZ(15 - 2 * b));
        gs_bc_x(&r4, &r6, IZ(14 - 2 * b)), gs_bc_x(&r5, &r7, IZ(14 - 2 * b));
        STORE8(blk, 0, 1);
    }
    /* columns m and m + 4 of every block: 0 and 3 in lane order, 1 and 2 in P */
    for (unsigned m = 0; m < 4; m += 3)
        inv_tail(a, m, 0);
    for (unsigned m = 1; m < 3; m++)
        inv_tail(a, m, 1);
}

#ifdef NTT_SCHED
#pragma GCC pop_options
#endif

/* FIPS order -> transposed-block order (ExpandA's output, see avx2.h). */
void cs_mldsa_nttorder_avx2(cs_mldsa_poly *p)
{
    __m256i r0, r1, r2, r3, r4, r5, r6, r7;
    for (unsigned b = 0; b < 4; b++) {
        int32_t *blk = p->c + 64 * b;
        LOAD8(blk, 0, 1);
        AVX2_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7);
        STORE8(blk, 0, 1);
    }
}

/* c = mont(a * b) lane-wise, sixteen coefficients per step (two
 * independent chains). */
void cs_mldsa_pointwise_avx2(cs_mldsa_poly *c, const cs_mldsa_poly *a, const cs_mldsa_poly *b)
{
    for (unsigned i = 0; i < 256; i += 16) {
        __m256i x0 = avx2_load(a->c + i), y0 = avx2_load(b->c + i);
        __m256i x1 = avx2_load(a->c + i + 8), y1 = avx2_load(b->c + i + 8);
        __m256i pe0 = _mm256_mul_epi32(x0, y0);
        __m256i po0 = _mm256_mul_epi32(odd_lanes(x0), odd_lanes(y0));
        __m256i pe1 = _mm256_mul_epi32(x1, y1);
        __m256i po1 = _mm256_mul_epi32(odd_lanes(x1), odd_lanes(y1));
        avx2_store(c->c + i, avx2_montred(pe0, po0));
        avx2_store(c->c + i + 8, avx2_montred(pe1, po1));
    }
}

/* Sixteen coefficients of c = mont(sum of n products): two registers per
 * operand so that four 64-bit sums are in flight. Inlined with n a
 * constant, so the loop over the n polynomials unrolls. */
static inline __attribute__((always_inline)) void acc16(cs_mldsa_poly *c, const cs_mldsa_poly *a,
                                                        const cs_mldsa_poly *b, unsigned n,
                                                        unsigned i, int red)
{
    __m256i se0 = _mm256_setzero_si256(), so0 = se0, se1 = se0, so1 = se0;
    for (unsigned j = 0; j < n; j++) {
        __m256i x0 = avx2_load(a[j].c + i), y0 = avx2_load(b[j].c + i);
        __m256i x1 = avx2_load(a[j].c + i + 8), y1 = avx2_load(b[j].c + i + 8);
        se0 = _mm256_add_epi64(se0, _mm256_mul_epi32(x0, y0));
        so0 = _mm256_add_epi64(so0, _mm256_mul_epi32(odd_lanes(x0), odd_lanes(y0)));
        se1 = _mm256_add_epi64(se1, _mm256_mul_epi32(x1, y1));
        so1 = _mm256_add_epi64(so1, _mm256_mul_epi32(odd_lanes(x1), odd_lanes(y1)));
    }
    __m256i r0 = avx2_montred(se0, so0), r1 = avx2_montred(se1, so1);
    if (red) {
        /* reduce32 in registers: subtract round(r / 2^23) * q */
        const __m256i q = _mm256_set1_epi32(AVX2_Q), half = _mm256_set1_epi32(1 << 22);
        r0 = _mm256_sub_epi32(r0, _mm256_mullo_epi32(_mm256_srai_epi32(_mm256_add_epi32(r0, half), 23), q));
        r1 = _mm256_sub_epi32(r1, _mm256_mullo_epi32(_mm256_srai_epi32(_mm256_add_epi32(r1, half), 23), q));
    }
    avx2_store(c->c + i, r0);
    avx2_store(c->c + i + 8, r1);
}

/* The two accumulating hooks (acc_hooks.h): sums summed in 64 bits like the
 * portable code (|sum| < 8 q 2^31 < 2^57), one reduction per coefficient
 * (and reduce32's if red), sixteen coefficients a step. */
#define ACC_SFX avx2
#define ACC_ANY(c, a, b, n, red)                                                        \
    for (unsigned i = 0; i < 256; i += 16)                                              \
    acc16(c, a, b, n, i, red)
#define ACC_FIXED ACC_ANY
#include "acc_hooks.h"
