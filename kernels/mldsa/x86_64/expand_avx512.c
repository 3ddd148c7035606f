/* ExpandA, ExpandS and ExpandMask for the "avx512" table: the samplers of
 * expand_avx2.c, but squeezing eight SHAKE streams per permutation
 * (keccak_x8_avx512.c) whenever a batch has more than four streams, and
 * four (keccak_x4_avx512.c) otherwise. Same streams, same consumption
 * order as FIPS 204, so outputs are identical to every other table. */
#include <string.h>

#include "avx2.h"

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

/* Permutes the batch and, if the side sponge has a full block, that too:
 * in one instruction stream with eight lanes (nearly free), else after. */
static inline void xs_perm_side(const cs_mldsa_impl *impl, xstate *x, cs_mldsa_side *side)
{
    if (!side || !cs_side_fill(side)) {
        xs_perm(x);
        return;
    }
    if (x->w == 8) {
        cs_keccakf1600_x8x1_avx512(x->s, side->sp.s);
    } else {
        xs_perm(x);
        impl->keccakf1600(side->sp.s);
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

/* Clears sampler state that held secret-derived bytes. */
static void xs_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ExpandA: A[r][s] = RejNTTPoly(rho || s || r), up to eight at a time; five
 * blocks (840 bytes) almost always suffice, more are squeezed for the
 * streams that need them. With side, also drives keygen's H(pk) (see
 * expand_a_side in mldsa_backend.h). Public data. */
static void expand_a(const cs_mldsa_impl *impl, cs_mldsa_poly *mat, const uint8_t rho[32],
                     unsigned k, unsigned l, cs_mldsa_side *side)
{
    uint8_t buf[8][5 * RATE128];
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
            xs_perm_side(impl, &x, side);
            for (unsigned j = 0; j < n; j++)
                xs_block(buf[j] + b * RATE128, &x, j, RATE128 / 8);
        }
        for (unsigned j = 0; j < n; j++) {
            ctr[j] = cs_mldsa_rej_uniform_avx2(mat[base + j].c, 256, buf[j], sizeof buf[j]);
            more |= ctr[j] < 256;
        }
        while (more) {
            more = 0;
            xs_perm_side(impl, &x, side);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                xs_block(buf[j], &x, j, RATE128 / 8);
                ctr[j] += cs_mldsa_rej_uniform_avx2(mat[base + j].c + ctr[j], 256 - ctr[j],
                                                    buf[j], RATE128);
                more |= ctr[j] < 256;
            }
        }
        for (unsigned j = 0; j < n; j++)
            cs_mldsa_nttorder_avx2(&mat[base + j]);
        if (side && (base + n) / l > side->rows)
            side->rows_done(side, (base + n) / l);
    }
}

void cs_mldsa_expand_a_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                              const uint8_t rho[32], unsigned k, unsigned l)
{
    expand_a(impl, mat, rho, k, l, NULL);
}

void cs_mldsa_expand_a_side_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                                   const uint8_t rho[32], unsigned k, unsigned l,
                                   cs_mldsa_side *side)
{
    expand_a(impl, mat, rho, k, l, side);
}

/* ExpandS: s1[r] from nonce r, s2[r] from l + r, up to eight streams at
 * once, one block at a time per stream until it has 256 values. Which
 * streams still need blocks depends only on rejection positions (see
 * rej_eta), never on the accepted values. */
void cs_mldsa_expand_s_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *s1, cs_mldsa_poly *s2,
                              const uint8_t rhoprime[64], unsigned k, unsigned l, unsigned eta)
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
        while (more) {
            more = 0;
            xs_perm(&x);
            for (unsigned j = 0; j < n; j++) {
                if (ctr[j] == 256)
                    continue;
                xs_block(buf, &x, j, RATE256 / 8);
                ctr[j] += cs_mldsa_rej_eta_avx2(out[j]->c + ctr[j], 256 - ctr[j], buf, RATE256,
                                                eta);
                more |= ctr[j] < 256;
            }
        }
    }
    xs_wipe(buf, sizeof buf);
    xs_wipe(&x, sizeof x);
}

/* ExpandMask: y[r] = BitUnpack(SHAKE256(rho'' || kappa + r), 576 or 640
 * bytes = five blocks), all l streams in one batch (l is 4, 5 or 7). */
void cs_mldsa_expand_mask_avx512(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                                 const uint8_t rhopp[64], uint16_t kappa, unsigned l,
                                 int32_t gamma1)
{
    uint8_t buf[8][5 * RATE256];
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
            for (unsigned j = 0; j < n; j++)
                xs_block(buf[j] + b * RATE256, &x, j, RATE256 / 8);
        }
        for (unsigned j = 0; j < n; j++)
            cs_mldsa_unpack_z_avx2(&y[base + j], buf[j], gamma1);
    }
    xs_wipe(buf, sizeof buf);
    xs_wipe(&x, sizeof x);
}
