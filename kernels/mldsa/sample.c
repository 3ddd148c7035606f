/* Rejection samplers (portable inner loops) and the generic ExpandA,
 * ExpandS, ExpandMask and SampleInBall built on an impl's hooks. The expand
 * functions run up to four SHAKE streams at once through
 * impl->keccak->f1600_x4. */
#include <string.h>

#include "mldsa_portable.h"

#define Q CS_MLDSA_Q

/* Stores 23-bit little-endian values of 3-byte groups that are below q.
 * Every candidate is written to a[ctr] (ctr < len holds at each write) and
 * ctr advances by the comparison: no branch to mispredict. */
unsigned cs_mldsa_rej_uniform_portable(int32_t *a, unsigned len, const uint8_t *buf,
                                       unsigned buflen)
{
    unsigned ctr = 0, pos = 0;
    /* Eight candidates from three 64-bit words while 8 slots remain. */
    for (; ctr + 8 <= len && pos + 24 <= buflen; pos += 24) {
        uint64_t w0 = cs_load64_le(buf + pos), w1 = cs_load64_le(buf + pos + 8),
                 w2 = cs_load64_le(buf + pos + 16);
        uint32_t t[8] = {
            (uint32_t)w0, (uint32_t)(w0 >> 24), (uint32_t)(w0 >> 48 | w1 << 16),
            (uint32_t)(w1 >> 8), (uint32_t)(w1 >> 32), (uint32_t)(w1 >> 56 | w2 << 8),
            (uint32_t)(w2 >> 16), (uint32_t)(w2 >> 40),
        };
        for (unsigned i = 0; i < 8; i++) {
            uint32_t v = t[i] & 0x7FFFFF;
            a[ctr] = (int32_t)v;
            ctr += v < Q;
        }
    }
    for (; ctr < len && pos + 3 <= buflen; pos += 3) {
        uint32_t t = buf[pos] | (uint32_t)buf[pos + 1] << 8 | (uint32_t)(buf[pos + 2] & 0x7F) << 16;
        a[ctr] = (int32_t)t;
        ctr += t < Q;
    }
    return ctr;
}

/* Stores eta - (nibble mod (2eta+1)) for accepted nibbles (< 15 for eta=2,
 * < 9 for eta=4). The accept bits of a chunk are computed first and
 * declassified together (which nibbles are rejected says nothing about the
 * accepted values); then candidates are compacted branch-free into a
 * scratch array, so the values never decide a branch or an index. */
unsigned cs_mldsa_rej_eta_portable(int32_t *a, unsigned len, const uint8_t *buf,
                                   unsigned buflen, unsigned eta)
{
    int32_t tmp[256 + 2];
    uint8_t ok[128];
    unsigned ctr = 0, pos = 0;
    uint32_t limit = eta == 2 ? 15 : 9;
    while (ctr < len && pos < buflen) {
        unsigned n = buflen - pos < 64 ? buflen - pos : 64;
        for (unsigned i = 0; i < n; i++) {
            ok[2 * i] = (uint8_t)(((buf[pos + i] & 15u) - limit) >> 31);
            ok[2 * i + 1] = (uint8_t)((((uint32_t)buf[pos + i] >> 4) - limit) >> 31);
        }
        CS_DECLASSIFY(ok, 2 * n);
        for (unsigned i = 0; i < n && ctr < len; i++) {
            uint32_t b0 = buf[pos + i] & 15u, b1 = (uint32_t)buf[pos + i] >> 4;
            if (eta == 2) {
                b0 -= ((205 * b0) >> 10) * 5; /* b mod 5 for b < 15 */
                b1 -= ((205 * b1) >> 10) * 5;
            }
            tmp[ctr] = (int32_t)eta - (int32_t)b0;
            ctr += ok[2 * i];
            tmp[ctr] = (int32_t)eta - (int32_t)b1;
            ctr += ok[2 * i + 1];
        }
        pos += n;
    }
    if (ctr > len) /* the last byte's second nibble was one too many */
        ctr = len;
    for (unsigned i = 0; i < ctr; i++)
        a[i] = tmp[i];
    cs_wipe(tmp, sizeof tmp);
    return ctr;
}

/* Lanes of state j out of an interleaved x4 state into bytes. */
static void x4_extract(uint8_t *out, const uint64_t *s, unsigned j, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        cs_store64_le(out + 8 * i, s[4 * i + j]);
}

/* Absorbs `seedlen`-byte seed (a multiple of 8) followed by a 2-byte nonce
 * into zeroed state(s) of the given rate, with SHAKE padding. stride is 1
 * for a single state, 4 for lane j of an interleaved x4 state. */
static void seed_state(uint64_t *s, unsigned stride, unsigned j, const uint8_t *seed,
                       unsigned seedlen, uint16_t nonce, unsigned rate)
{
    unsigned i;
    for (i = 0; i < seedlen / 8; i++)
        s[stride * i + j] = cs_load64_le(seed + 8 * i);
    s[stride * i + j] = (uint64_t)nonce | (uint64_t)0x1F << 16;
    s[stride * ((rate - 1) / 8) + j] ^= (uint64_t)0x80 << 56;
}

/* Runs up to four SHAKE streams seeded by seed||nonces[j], squeezing
 * `rate`-byte blocks into buf[j] (each at least `blocks` blocks long)
 * through `consume`, which returns nonzero once stream j needs no more.
 * Uses impl->keccak->f1600_x4 if present, else one stream at a time. */
typedef int (*consume_fn)(void *ctx, unsigned j, const uint8_t *block, unsigned len);

static void run_streams(const cs_mldsa_impl *impl, const uint8_t *seed, unsigned seedlen,
                        const uint16_t *nonces, unsigned n, unsigned rate,
                        consume_fn consume, void *ctx)
{
    uint8_t block[CS_SHAKE128_RATE];
    if (impl->keccak->f1600_x4) {
        uint64_t s[100];
        memset(s, 0, sizeof s);
        for (unsigned j = 0; j < 4; j++)
            seed_state(s, 4, j, seed, seedlen, nonces[j < n ? j : 0], rate);
        unsigned done = 0, want = (1u << n) - 1;
        while (done != want) {
            impl->keccak->f1600_x4(s);
            for (unsigned j = 0; j < n; j++) {
                if (done >> j & 1)
                    continue;
                x4_extract(block, s, j, rate / 8);
                if (consume(ctx, j, block, rate))
                    done |= 1u << j;
            }
        }
        cs_wipe(s, sizeof s); /* ExpandS/ExpandMask streams are secret */
        cs_wipe(block, sizeof block);
        return;
    }
    for (unsigned j = 0; j < n; j++) {
        uint64_t s[25];
        memset(s, 0, sizeof s);
        seed_state(s, 1, 0, seed, seedlen, nonces[j], rate);
        const uint8_t *out;
        do {
            impl->keccak->f1600(s);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* the lanes in memory already are the output bytes */
            out = (const uint8_t *)s;
#else
            for (unsigned i = 0; i < rate / 8; i++)
                cs_store64_le(block + 8 * i, s[i]);
            out = block;
#endif
        } while (!consume(ctx, j, out, rate));
        cs_wipe(s, sizeof s);
    }
    cs_wipe(block, sizeof block);
}

struct rej_ctx {
    const cs_mldsa_impl *impl;
    cs_mldsa_poly *out[4];
    unsigned ctr[4];
    unsigned eta;
};

static int consume_uniform(void *vctx, unsigned j, const uint8_t *block, unsigned len)
{
    struct rej_ctx *c = vctx;
    c->ctr[j] += c->impl->rej_uniform(c->out[j]->c + c->ctr[j], 256 - c->ctr[j], block, len);
    return c->ctr[j] == 256;
}

static int consume_eta(void *vctx, unsigned j, const uint8_t *block, unsigned len)
{
    struct rej_ctx *c = vctx;
    c->ctr[j] += c->impl->rej_eta(c->out[j]->c + c->ctr[j], 256 - c->ctr[j], block, len,
                                  c->eta);
    return c->ctr[j] == 256;
}

/* ExpandA (FIPS 204 Algorithm 32): A[r][s] = RejNTTPoly(rho || s || r). */
void cs_mldsa_expand_a_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *mat,
                               const uint8_t rho[32], unsigned k, unsigned l)
{
    unsigned total = k * l;
    for (unsigned base = 0; base < total; base += 4) {
        struct rej_ctx c = {.impl = impl};
        uint16_t nonces[4];
        unsigned n = total - base < 4 ? total - base : 4;
        for (unsigned j = 0; j < n; j++) {
            unsigned idx = base + j, r = idx / l, s = idx % l;
            nonces[j] = (uint16_t)(s | r << 8);
            c.out[j] = &mat[idx];
            c.ctr[j] = 0;
        }
        run_streams(impl, rho, 32, nonces, n, CS_SHAKE128_RATE, consume_uniform, &c);
        if (impl->ntt_order)
            for (unsigned j = 0; j < n; j++)
                impl->ntt_order(c.out[j]);
    }
}

/* ExpandS (FIPS 204 Algorithm 33): s1[r] from nonce r, s2[r] from l + r. */
void cs_mldsa_expand_s_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *s1,
                               cs_mldsa_poly *s2, const uint8_t rhoprime[64], unsigned k,
                               unsigned l, unsigned eta)
{
    unsigned total = k + l;
    for (unsigned base = 0; base < total; base += 4) {
        struct rej_ctx c = {.impl = impl, .eta = eta};
        uint16_t nonces[4];
        unsigned n = total - base < 4 ? total - base : 4;
        for (unsigned j = 0; j < n; j++) {
            unsigned idx = base + j;
            nonces[j] = (uint16_t)idx;
            c.out[j] = idx < l ? &s1[idx] : &s2[idx - l];
            c.ctr[j] = 0;
        }
        run_streams(impl, rhoprime, 64, nonces, n, CS_SHAKE256_RATE, consume_eta, &c);
    }
}

struct mask_ctx {
    uint8_t buf[4][5 * CS_SHAKE256_RATE];
    unsigned got[4];
    unsigned need;
};

static int consume_mask(void *vctx, unsigned j, const uint8_t *block, unsigned len)
{
    struct mask_ctx *c = vctx;
    memcpy(c->buf[j] + c->got[j], block, len);
    c->got[j] += len;
    return c->got[j] >= c->need;
}

/* ExpandMask (FIPS 204 Algorithm 34): y[r] = BitUnpack(H(rho'' || kappa+r)). */
void cs_mldsa_expand_mask_generic(const cs_mldsa_impl *impl, cs_mldsa_poly *y,
                                  const uint8_t rhopp[64], uint16_t kappa, unsigned l,
                                  int32_t gamma1)
{
    struct mask_ctx c;
    c.need = gamma1 == (1 << 17) ? 576 : 640;
    for (unsigned base = 0; base < l; base += 4) {
        uint16_t nonces[4];
        unsigned n = l - base < 4 ? l - base : 4;
        for (unsigned j = 0; j < n; j++) {
            nonces[j] = (uint16_t)(kappa + base + j);
            c.got[j] = 0;
        }
        run_streams(impl, rhopp, 64, nonces, n, CS_SHAKE256_RATE, consume_mask, &c);
        for (unsigned j = 0; j < n; j++)
            impl->unpack_z(&y[base + j], c.buf[j], gamma1);
    }
    cs_wipe(&c, sizeof c);
}

/* SampleInBall (FIPS 204 Algorithm 29). ctilde is declassified by the
 * caller (a random-oracle output; public once the signature is out), so
 * the rejection on j and the index j may depend on it. */
void cs_mldsa_sample_in_ball(const cs_mldsa_impl *impl, cs_mldsa_poly *c,
                             const uint8_t *ctilde, unsigned ctilde_bytes, unsigned tau)
{
    cs_shake sp;
    uint8_t buf[CS_SHAKE256_RATE];
    unsigned pos = 8;
    cs_shake_init(&sp, impl->keccak, CS_SHAKE256_RATE);
    cs_shake_absorb(&sp, ctilde, ctilde_bytes);
    cs_shake_squeeze(&sp, buf, sizeof buf);
    uint64_t signs = cs_load64_le(buf);
    memset(c->c, 0, sizeof c->c);
    for (unsigned i = 256 - tau; i < 256; i++) {
        unsigned j;
        do {
            if (pos == sizeof buf) {
                cs_shake_squeeze(&sp, buf, sizeof buf);
                pos = 0;
            }
            j = buf[pos++];
        } while (j > i);
        c->c[i] = c->c[j];
        c->c[j] = 1 - 2 * (int32_t)(signs & 1);
        signs >>= 1;
    }
}
