/* SHA-512, portable C (sha512.h). The schedule is expanded and K added
 * before the rounds, so a round holds only the eight working words and the
 * carried b ^ c (fewer spills on x86-64: 6.6 cycles a byte on Zen 3 against
 * 7.1 with the schedule in a 16-word ring). 32-bit targets (SPARC) get the
 * same code through the compiler's double-word arithmetic. */
#include "sha512.h"

#include <string.h>

#include "../ct.h"

/* FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube
 * roots of the first 80 primes. */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* FIPS 180-4 5.3.5: the initial hash value. */
static const uint64_t IV512[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static inline uint64_t ror64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

static inline uint64_t load_be64(const uint8_t *p)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < 8; i++)
        x = (x << 8) | p[i];
    return x;
}

static inline void store_be64(uint8_t *p, uint64_t x)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (56 - 8 * i));
}

#define S1(e) (ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41))
#define S0(a) (ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39))
/* One round; wk = w[i] + K[i]. Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), where
 * b ^ c is the previous round's a ^ b (kept in bc). */
#define ROUND(a, b, c, d, e, f, g, h, wk)                                   \
    do {                                                                   \
        uint64_t t1 = h + (wk) + S1(e) + (g ^ (e & (f ^ g)));              \
        uint64_t ab = a ^ b;                                               \
        uint64_t t2 = S0(a) + (b ^ (ab & bc));                             \
        bc = ab;                                                           \
        d += t1;                                                           \
        h = t1 + t2;                                                       \
    } while (0)

static cs_sha512_transform_fn transform; /* NULL: portable C */

void cs_sha512_set_transform(cs_sha512_transform_fn fn)
{
    __atomic_store_n(&transform, fn, __ATOMIC_RELEASE);
}

/* The blocks through the installed transform: a context whose first
 * eight words are the chaining value, the rest (SHA512_CTX's counters and
 * buffer, 216 bytes in all) never read by it. */
static void blocks_transform(cs_sha512_transform_fn fn, uint64_t st[8], const uint8_t *p,
                             size_t nblocks)
{
    struct {
        uint64_t h[8];
        uint8_t rest[256];
    } ctx;
    memcpy(ctx.h, st, sizeof(ctx.h));
    memset(ctx.rest, 0, sizeof(ctx.rest));
    for (; nblocks; nblocks--, p += CS_SHA512_BLOCK)
        fn(&ctx, p);
    memcpy(st, ctx.h, sizeof(ctx.h));
    cs_wipe(&ctx, sizeof(ctx));
}

void cs_sha512_blocks(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
    cs_sha512_transform_fn fn = __atomic_load_n(&transform, __ATOMIC_ACQUIRE);
    if (fn) {
        blocks_transform(fn, st, p, nblocks);
        return;
    }
    for (; nblocks; nblocks--, p += CS_SHA512_BLOCK) {
        uint64_t w[80];
        uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
        uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
        uint64_t bc = b ^ c;
        for (unsigned i = 0; i < 16; i++)
            w[i] = load_be64(p + 8 * i);
        for (unsigned i = 16; i < 80; i++) {
            uint64_t x = w[i - 2], y = w[i - 15];
            w[i] = (ror64(x, 19) ^ ror64(x, 61) ^ (x >> 6)) + w[i - 7] +
                   (ror64(y, 1) ^ ror64(y, 8) ^ (y >> 7)) + w[i - 16];
        }
        for (unsigned i = 0; i < 80; i++)
            w[i] += K512[i];
        for (unsigned i = 0; i < 80; i += 8) {
            ROUND(a, b, c, d, e, f, g, h, w[i + 0]);
            ROUND(h, a, b, c, d, e, f, g, w[i + 1]);
            ROUND(g, h, a, b, c, d, e, f, w[i + 2]);
            ROUND(f, g, h, a, b, c, d, e, w[i + 3]);
            ROUND(e, f, g, h, a, b, c, d, w[i + 4]);
            ROUND(d, e, f, g, h, a, b, c, w[i + 5]);
            ROUND(c, d, e, f, g, h, a, b, w[i + 6]);
            ROUND(b, c, d, e, f, g, h, a, w[i + 7]);
        }
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        st[5] += f;
        st[6] += g;
        st[7] += h;
        cs_wipe(w, sizeof(w));
    }
}

void cs_sha512_init(cs_sha512_ctx *c)
{
    memcpy(c->h, IV512, sizeof(IV512));
    c->total = 0;
    c->fill = 0;
}

void cs_sha512_update(cs_sha512_ctx *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (n == 0)
        return;
    c->total += n;
    if (c->fill) {
        size_t take = CS_SHA512_BLOCK - c->fill;
        if (take > n)
            take = n;
        memcpy(c->buf + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
        if (c->fill < CS_SHA512_BLOCK)
            return;
        cs_sha512_blocks(c->h, c->buf, 1);
        c->fill = 0;
    }
    if (n >= CS_SHA512_BLOCK) {
        cs_sha512_blocks(c->h, p, n / CS_SHA512_BLOCK);
        p += n & ~(size_t)(CS_SHA512_BLOCK - 1);
        n &= CS_SHA512_BLOCK - 1;
    }
    if (n) {
        memcpy(c->buf, p, n);
        c->fill = n;
    }
}

void cs_sha512_final(cs_sha512_ctx *c, uint8_t out[CS_SHA512_BYTES])
{
    size_t f = c->fill;
    c->buf[f++] = 0x80;
    if (f > CS_SHA512_BLOCK - 16) {
        memset(c->buf + f, 0, CS_SHA512_BLOCK - f);
        cs_sha512_blocks(c->h, c->buf, 1);
        f = 0;
    }
    memset(c->buf + f, 0, CS_SHA512_BLOCK - 8 - f);
    /* the bit length as 128 bits; the top 64 are (total >> 61) */
    uint64_t total = c->total;
    c->buf[CS_SHA512_BLOCK - 9] = (uint8_t)(total >> 61);
    store_be64(c->buf + CS_SHA512_BLOCK - 8, total << 3);
    cs_sha512_blocks(c->h, c->buf, 1);
    for (unsigned i = 0; i < 8; i++)
        store_be64(out + 8 * i, c->h[i]);
    cs_wipe(c, sizeof(*c));
}

void cs_sha512(uint8_t out[CS_SHA512_BYTES], const void *p, size_t n)
{
    cs_sha512_ctx c;
    cs_sha512_init(&c);
    cs_sha512_update(&c, p, n);
    cs_sha512_final(&c, out);
}
