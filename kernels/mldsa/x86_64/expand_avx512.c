/* ExpandA, ExpandS and ExpandMask for the "avx512" table: the samplers of
 * expand_avx2.c, but squeezing eight SHAKE streams per permutation
 * (kernels/keccak/x86_64/x8_avx512.c) whenever a batch has more than four streams, and
 * four (kernels/keccak/x86_64/x4_avx512.c) otherwise. Same streams, same consumption
 * order as FIPS 204, so outputs are identical to every other table. */
#include <string.h>

#include <immintrin.h>

#include "avx2.h"
#include "avx512.h"

#define RATE128 CS_SHAKE128_RATE
#define RATE256 CS_SHAKE256_RATE

/* A batch of w (4 or 8) Keccak states, lane i of state j at s[w*i + j]. */
typedef struct xstate {
    uint64_t s[200];
    unsigned w;
} xstate;

/* Permutes every state of the batch. */
static inline void xs_perm(xstate *x)
{
    if (x->w == 8)
        cs_keccakf1600_x8_avx512(x->s);
    else
        cs_keccakf1600_x4_avx512(x->s);
}

/* An ExpandS stream still short of 256 coefficients after its batch's
 * first block (keygen): its state taken out of the batch and given
 * one more block at a time in the scalar slot of ExpandA's 8-way
 * permutations, which H(pk) cannot use before the first rows of pk. */
typedef struct sjob {
    uint64_t s[25];
    int32_t *out;
    unsigned ctr;
} sjob;

/* Scalar slots of ExpandA's first 8-wide batch (five blocks per stream),
 * all free: H(pk) has no full block before the first rows of pk. */
#define SQ_SLOTS 5

typedef struct squeue {
    sjob j[CS_MLDSA_MAX_K + CS_MLDSA_MAX_L];
    unsigned n, done, eta;
} squeue;

/* Samples the (just permuted) block of the front job; moves on to the
 * next job once this one has 256 coefficients. The lanes are the bytes,
 * little-endian. */
static void sq_take(squeue *q)
{
    sjob *jb = &q->j[q->done];
    jb->ctr += cs_mldsa_rej_eta_avx512(jb->out + jb->ctr, 256 - jb->ctr, (const uint8_t *)jb->s,
                                       RATE256, q->eta);
    if (jb->ctr == 256)
        q->done++;
}

/* Finishes every pending job with scalar permutations. */
static void sq_flush(const cs_mldsa_impl *impl, squeue *q)
{
    while (q && q->done < q->n) {
        impl->keccak->f1600(q->j[q->done].s);
        sq_take(q);
    }
}

/* Permutes the batch and, if the side sponge has a full block, that too:
 * in one instruction stream with eight lanes (nearly free), else after.
 * Without a full side block, an 8-wide batch carries the front pending
 * ExpandS job (q) in that slot instead. */
static inline void xs_perm_side(const cs_mldsa_impl *impl, xstate *x, cs_mldsa_side *side,
                                squeue *q)
{
    if (!side || !cs_side_fill(side)) {
        if (q && q->done < q->n && x->w == 8) {
            cs_keccakf1600_x8x1_avx512(x->s, q->j[q->done].s);
            sq_take(q);
        } else {
            xs_perm(x);
        }
        return;
    }
    if (x->w == 8) {
        cs_keccakf1600_x8x1_avx512(x->s, side->sp.s);
    } else {
        xs_perm(x);
        impl->keccak->f1600(side->sp.s);
    }
    side->sp.pos = 0;
}

/* Lanes for a batch of n streams: eight when more than four are needed. */
static inline unsigned xs_width(unsigned n)
{
    return n > 4 ? 8 : 4;
}

/* Zeroes a w-wide batch and absorbs seed (seedlen bytes, a multiple of 8)
 * || nonce[j] into state j, with SHAKE padding for the given rate. */
static void xs_seed(xstate *x, unsigned w, const uint8_t *seed, unsigned seedlen,
                    const uint16_t *nonce, unsigned rate)
{
    x->w = w;
    memset(x->s, 0, 25 * w * sizeof x->s[0]);
    for (unsigned j = 0; j < w; j++) {
        unsigned i;
        for (i = 0; i < seedlen / 8; i++)
            memcpy(&x->s[w * i + j], seed + 8 * i, 8); /* x86-64: little-endian lanes */
        x->s[w * i + j] = (uint64_t)nonce[j] | (uint64_t)0x1F << 16;
        x->s[w * ((rate - 1) / 8) + j] ^= (uint64_t)0x80 << 56;
    }
}

/* Copies the first `lanes` lanes of state j out of the batch. */
static inline void xs_block(uint8_t *out, const xstate *x, unsigned j, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        memcpy(out + 8 * i, &x->s[x->w * i + j], 8);
}

/* Copies the first `lanes` lanes of all eight states of an 8-wide batch to
 * out[j] + off: 8x8 transposes of 64-bit lanes (unpack, then two rounds
 * of 128-bit shuffles) instead of one 8-byte copy per lane and state. The
 * last partial group reads lanes up to 23 (the state has 25) and stores
 * only the lanes asked for. */
static void x8_blocks(uint8_t *const out[8], size_t off, const uint64_t *s, unsigned lanes)
{
    for (unsigned i0 = 0; i0 < lanes; i0 += 8) {
        const __m512i *v = (const __m512i *)(s + 8 * i0);
        __m512i r0 = _mm512_loadu_si512(v + 0), r1 = _mm512_loadu_si512(v + 1),
                r2 = _mm512_loadu_si512(v + 2), r3 = _mm512_loadu_si512(v + 3),
                r4 = _mm512_loadu_si512(v + 4), r5 = _mm512_loadu_si512(v + 5),
                r6 = _mm512_loadu_si512(v + 6), r7 = _mm512_loadu_si512(v + 7);
        __m512i t0 = _mm512_unpacklo_epi64(r0, r1), t1 = _mm512_unpackhi_epi64(r0, r1),
                t2 = _mm512_unpacklo_epi64(r2, r3), t3 = _mm512_unpackhi_epi64(r2, r3),
                t4 = _mm512_unpacklo_epi64(r4, r5), t5 = _mm512_unpackhi_epi64(r4, r5),
                t6 = _mm512_unpacklo_epi64(r6, r7), t7 = _mm512_unpackhi_epi64(r6, r7);
        __m512i u0 = _mm512_shuffle_i64x2(t0, t2, 0x88), u1 = _mm512_shuffle_i64x2(t0, t2, 0xDD),
                u2 = _mm512_shuffle_i64x2(t1, t3, 0x88), u3 = _mm512_shuffle_i64x2(t1, t3, 0xDD),
                u4 = _mm512_shuffle_i64x2(t4, t6, 0x88), u5 = _mm512_shuffle_i64x2(t4, t6, 0xDD),
                u6 = _mm512_shuffle_i64x2(t5, t7, 0x88), u7 = _mm512_shuffle_i64x2(t5, t7, 0xDD);
        __m512i c[8] = {
            _mm512_shuffle_i64x2(u0, u4, 0x88), _mm512_shuffle_i64x2(u2, u6, 0x88),
            _mm512_shuffle_i64x2(u1, u5, 0x88), _mm512_shuffle_i64x2(u3, u7, 0x88),
            _mm512_shuffle_i64x2(u0, u4, 0xDD), _mm512_shuffle_i64x2(u2, u6, 0xDD),
            _mm512_shuffle_i64x2(u1, u5, 0xDD), _mm512_shuffle_i64x2(u3, u7, 0xDD),
        };
        __mmask8 m = lanes - i0 >= 8 ? 0xFF : (__mmask8)((1u << (lanes - i0)) - 1);
        for (unsigned j = 0; j < 8; j++)
            _mm512_mask_storeu_epi64(out[j] + off + 8 * i0, m, c[j]);
    }
}

/* ExpandA: A[r][s] = RejNTTPoly(rho || s || r), up to eight at a time; five
 * blocks (840 bytes) almost always suffice, more are squeezed for the
 * streams that need them. With side, also drives keygen's H(pk) (see
 * expand_a_side in mldsa_backend.h). Public data. */
static void expand_a(const cs_mldsa_impl *impl, cs_mldsa_poly *mat, const uint8_t rho[32],
                     unsigned k, unsigned l, cs_mldsa_side *side, squeue *q)
{
    uint8_t buf[8][5 * RATE128];
    uint8_t *const outb[8] = {buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]};
    xstate x;
    unsigned total = k * l;
    for (unsigned base = 0, n; base < total; base += n) {
        n = total - base < 8 ? total - base : 8;
        unsigned w = xs_width(n), ctr[8], more = 0;
        uint16_t nonce[8];
        for (unsigned j = 0; j < w; j++) {
            unsigned idx = base + (j < n ? j : 0);
            nonce[j] = (uint16_t)(idx % l | (idx / l) << 8);
        }
        xs_seed(&x, w, rho, 32, nonce, RATE128);
        for (unsigned b = 0; b < 5; b++) {
            xs_perm_side(impl, &x, side, q);
            if (w == 8)
                x8_blocks(outb, b * RATE128, x.s, RATE128 / 8);
            else
                for (unsigned j = 0; j < n; j++)
                    xs_block(buf[j] + b * RATE128, &x, j, RATE128 / 8);
        }
        for (unsigned j = 0; j < n; j++) {
            ctr[j] = cs_mldsa_rej_uniform_avx512(mat[base + j].c, 256, buf[j], sizeof buf[j]);
            more |= ctr[j] < 256;
        }
        while (more) {
            more = 0;
            xs_perm_side(impl, &x, side, q);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                xs_block(buf[j], &x, j, RATE128 / 8);
                ctr[j] += cs_mldsa_rej_uniform_avx512(mat[base + j].c + ctr[j], 256 - ctr[j],
                                                    buf[j], RATE128);
                more |= ctr[j] < 256;
            }
        }
        for (unsigned j = 0; j < n; j++)
            impl->ntt_order(&mat[base + j]);
        if (side && (base + n) / l > side->rows) {
            sq_flush(impl, q); /* s1 and s2 final before the first row */
            side->rows_done(side, (base + n) / l);
        }
    }
}

void cs_mldsa_expand_a_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                              const uint8_t rho[32], unsigned k, unsigned l)
{
    expand_a(impl, mat, rho, k, l, NULL, NULL);
}

void cs_mldsa_expand_a_side_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                                   const uint8_t rho[32], unsigned k, unsigned l,
                                   cs_mldsa_side *side)
{
    expand_a(impl, mat, rho, k, l, side, NULL);
}

/* ExpandS: s1[r] from nonce r, s2[r] from l + r, up to eight streams at
 * once, one block at a time per stream until it has 256 values. Which
 * streams still need blocks depends only on rejection positions (see
 * rej_eta), never on the accepted values. With q, when after the first
 * block of a batch at most SQ_SLOTS streams in all are short
 * (eta = 2 leaves about half of them short, needing one more block; eta
 * = 4 leaves all short), they are queued there instead (their states
 * copied out) for expand_a to finish, saving the batch's second
 * permutation. */
static void expand_s(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                     const uint8_t rhoprime[64], unsigned k, unsigned l, unsigned eta,
                     squeue *q)
{
    uint8_t buf[RATE256];
    xstate x;
    unsigned total = k + l;
    for (unsigned base = 0, n; base < total; base += n) {
        n = total - base < 8 ? total - base : 8;
        unsigned w = xs_width(n), ctr[8] = {0}, more = 1;
        uint16_t nonce[8];
        cs_mldsa_poly *out[8];
        for (unsigned j = 0; j < w; j++) {
            unsigned idx = base + (j < n ? j : 0);
            nonce[j] = (uint16_t)idx;
            out[j] = idx < l ? &s1[idx] : &s2[idx - l];
        }
        xs_seed(&x, w, rhoprime, 64, nonce, RATE256);
        for (unsigned blocks = 0; more; blocks++) {
            unsigned shortn = 0;
            for (unsigned j = 0; j < n; j++)
                shortn += ctr[j] < 256;
            if (q && blocks == 1 && q->n + shortn <= SQ_SLOTS) {
                for (unsigned j = 0; j < n; j++) {
                    if (ctr[j] == 256)
                        continue;
                    sjob *jb = &q->j[q->n++];
                    for (unsigned i = 0; i < 25; i++)
                        jb->s[i] = x.s[w * i + j];
                    jb->out = out[j]->c;
                    jb->ctr = ctr[j];
                }
                break;
            }
            more = 0;
            xs_perm(&x);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                xs_block(buf, &x, j, RATE256 / 8);
                ctr[j] += cs_mldsa_rej_eta_avx512(out[j]->c + ctr[j], 256 - ctr[j], buf, RATE256,
                                                  eta);
                more |= ctr[j] < 256;
            }
        }
    }
    cs_wipe(buf, sizeof buf);
    cs_wipe(&x, sizeof x);
}

void cs_mldsa_expand_s_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                              const uint8_t rhoprime[64], unsigned k, unsigned l, unsigned eta)
{
    expand_s(impl, s1, s2, rhoprime, k, l, eta, NULL);
}

/* Keygen's ExpandS and ExpandA: streams ExpandS leaves short are finished
 * in the scalar slots of ExpandA's first permutations (before any row of
 * pk exists for H(pk) to absorb), which usually saves ExpandS's second
 * 8-wide permutation for eta = 2; a job still short when the first rows
 * are due (more than one block) is finished with scalar permutations. */
void cs_mldsa_expand_sa_side_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *s1,
                                    cs_mldsa_poly *s2, const uint8_t rhoprime[64], unsigned eta,
                                    cs_mldsa_poly *mat, const uint8_t rho[32], unsigned k,
                                    unsigned l, cs_mldsa_side *side)
{
    squeue q;
    q.n = q.done = 0;
    q.eta = eta;
    expand_s(impl, s1, s2, rhoprime, k, l, eta, &q);
    expand_a(impl, mat, rho, k, l, side, &q);
    sq_flush(impl, &q);
    cs_wipe(&q, sizeof q);
}

/* ExpandMask: y[r] = BitUnpack(SHAKE256(rho'' || kappa + r), 576 or 640
 * bytes = five blocks), all l streams in one batch (l is 4, 5 or 7). */
void cs_mldsa_expand_mask_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                                 const uint8_t rhopp[64], uint16_t kappa, unsigned l,
                                 int32_t gamma1)
{
    uint8_t buf[8][5 * RATE256];
    uint8_t *const outb[8] = {buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]};
    xstate x;
    for (unsigned base = 0, n; base < l; base += n) {
        n = l - base < 8 ? l - base : 8;
        unsigned w = xs_width(n);
        uint16_t nonce[8];
        for (unsigned j = 0; j < w; j++)
            nonce[j] = (uint16_t)(kappa + base + (j < n ? j : 0));
        xs_seed(&x, w, rhopp, 64, nonce, RATE256);
        for (unsigned b = 0; b < 5; b++) {
            xs_perm(&x);
            if (w == 8)
                x8_blocks(outb, b * RATE256, x.s, RATE256 / 8);
            else
                for (unsigned j = 0; j < n; j++)
                    xs_block(buf[j] + b * RATE256, &x, j, RATE256 / 8);
        }
        for (unsigned j = 0; j < n; j++)
            cs_mldsa_unpack_z_avx512(&y[base + j], buf[j], gamma1);
    }
    cs_wipe(buf, sizeof buf);
    cs_wipe(&x, sizeof x);
}
