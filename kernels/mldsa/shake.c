/* SHAKE128/256 sponges on an implementation's Keccak-f[1600], and the public
 * incremental SHAKE256 of mldsa.h (on the portable permutation). Bytes enter
 * and leave lanes little-endian, so results match on big-endian hosts. */
#include <string.h>

#include "mldsa_portable.h"

/* XORs len bytes into the state at byte offset pos (pos + len <= 200). */
static void xor_bytes(uint64_t *s, unsigned pos, const uint8_t *in, size_t len)
{
    while (len && (pos & 7)) {
        s[pos >> 3] ^= (uint64_t)*in++ << (8 * (pos & 7));
        pos++, len--;
    }
    while (len >= 8) {
        s[pos >> 3] ^= cs_load64_le(in);
        in += 8, pos += 8, len -= 8;
    }
    while (len) {
        s[pos >> 3] ^= (uint64_t)*in++ << (8 * (pos & 7));
        pos++, len--;
    }
}

/* Copies len state bytes from byte offset pos. */
static void extract_bytes(uint8_t *out, const uint64_t *s, unsigned pos, size_t len)
{
    while (len && (pos & 7)) {
        *out++ = (uint8_t)(s[pos >> 3] >> (8 * (pos & 7)));
        pos++, len--;
    }
    while (len >= 8) {
        cs_store64_le(out, s[pos >> 3]);
        out += 8, pos += 8, len -= 8;
    }
    while (len) {
        *out++ = (uint8_t)(s[pos >> 3] >> (8 * (pos & 7)));
        pos++, len--;
    }
}

/* Empty sponge with the given rate in bytes. */
void cs_sponge_init(cs_keccak_sponge *st, unsigned rate)
{
    memset(st->s, 0, sizeof st->s);
    st->pos = 0;
    st->rate = rate;
}

/* Absorbs len bytes, permuting with impl's Keccak at each full block. */
void cs_sponge_absorb(const cs_mldsa_impl *impl, cs_keccak_sponge *st, const uint8_t *in,
                      size_t len)
{
    while (len) {
        size_t n = st->rate - st->pos;
        if (n > len)
            n = len;
        xor_bytes(st->s, st->pos, in, n);
        st->pos += (unsigned)n;
        in += n, len -= n;
        if (st->pos == st->rate) {
            impl->keccakf1600(st->s);
            st->pos = 0;
        }
    }
}

int cs_side_fill(cs_mldsa_side *side)
{
    cs_keccak_sponge *st = &side->sp;
    size_t n = st->rate - st->pos, ready = side->avail - side->used;
    if (n > ready)
        n = ready;
    xor_bytes(st->s, st->pos, side->data + side->used, n);
    st->pos += (unsigned)n;
    side->used += n;
    return st->pos == st->rate;
}

/* SHAKE padding; afterwards pos counts squeezed bytes of the current block
 * (rate = none left, so the first squeeze permutes). */
void cs_sponge_finalize(const cs_mldsa_impl *impl, cs_keccak_sponge *st)
{
    st->s[st->pos >> 3] ^= (uint64_t)0x1F << (8 * (st->pos & 7));
    st->s[(st->rate - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((st->rate - 1) & 7));
    st->pos = st->rate;
}

/* Squeezes len bytes after cs_sponge_finalize. */
void cs_sponge_squeeze(const cs_mldsa_impl *impl, cs_keccak_sponge *st, uint8_t *out,
                       size_t len)
{
    while (len) {
        if (st->pos == st->rate) {
            impl->keccakf1600(st->s);
            st->pos = 0;
        }
        size_t n = st->rate - st->pos;
        if (n > len)
            n = len;
        extract_bytes(out, st->s, st->pos, n);
        st->pos += (unsigned)n;
        out += n, len -= n;
    }
}

/* Public incremental SHAKE256 (mldsa.h), on the portable permutation. */
void cs_shake256_init(cs_shake256 *st)
{
    memset(st->s, 0, sizeof st->s);
    st->pos = 0;
    st->finalized = 0;
}

/* Absorbs more input; must not be called after the first squeeze. */
void cs_shake256_absorb(cs_shake256 *st, const uint8_t *in, size_t len)
{
    cs_keccak_sponge sp;
    memcpy(sp.s, st->s, sizeof sp.s);
    sp.pos = st->pos;
    sp.rate = CS_SHAKE256_RATE;
    cs_sponge_absorb(&cs_mldsa_portable, &sp, in, len);
    memcpy(st->s, sp.s, sizeof sp.s);
    st->pos = sp.pos;
}

/* Squeezes len bytes, padding the input on the first call. */
void cs_shake256_squeeze(cs_shake256 *st, uint8_t *out, size_t len)
{
    cs_keccak_sponge sp;
    memcpy(sp.s, st->s, sizeof sp.s);
    sp.pos = st->pos;
    sp.rate = CS_SHAKE256_RATE;
    if (!st->finalized) {
        cs_sponge_finalize(&cs_mldsa_portable, &sp);
        st->finalized = 1;
    }
    cs_sponge_squeeze(&cs_mldsa_portable, &sp, out, len);
    memcpy(st->s, sp.s, sizeof sp.s);
    st->pos = sp.pos;
}
