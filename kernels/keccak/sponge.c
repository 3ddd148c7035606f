/* The SHAKE sponge of keccak.h on a table's scalar permutation, and the
 * incremental SHAKE256 on the default table. Bytes enter and leave lanes
 * little-endian, so results match on big-endian hosts. */
#include <string.h>

#include "keccak.h"

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

/* Empty sponge of rate bytes on k (keccak.h). */
void cs_shake_init(cs_shake *st, const cs_keccak_impl *k, unsigned rate)
{
    memset(st->s, 0, sizeof st->s);
    st->pos = 0;
    st->rate = rate;
    st->squeezing = 0;
    st->k = k;
}

/* XORs input up to the end of the block, no permutation; returns bytes taken. */
size_t cs_shake_fill(cs_shake *st, const uint8_t *in, size_t len)
{
    size_t n = st->rate - st->pos;
    if (n > len)
        n = len;
    xor_bytes(st->s, st->pos, in, n);
    st->pos += (unsigned)n;
    return n;
}

/* Absorbs len bytes, permuting at each full block. */
void cs_shake_absorb(cs_shake *st, const uint8_t *in, size_t len)
{
    while (len) {
        size_t n = cs_shake_fill(st, in, len);
        in += n, len -= n;
        if (st->pos == st->rate) {
            st->k->f1600(st->s);
            st->pos = 0;
        }
    }
}

/* SHAKE padding, once. Afterwards pos counts squeezed bytes of the current block (rate = none
 * left, so the first squeeze permutes). */
void cs_shake_finalize(cs_shake *st)
{
    if (st->squeezing)
        return;
    st->s[st->pos >> 3] ^= (uint64_t)0x1F << (8 * (st->pos & 7));
    st->s[(st->rate - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((st->rate - 1) & 7));
    st->pos = st->rate;
    st->squeezing = 1;
}

/* Squeezes len bytes, padding first if still absorbing. */
void cs_shake_squeeze(cs_shake *st, uint8_t *out, size_t len)
{
    cs_shake_finalize(st);
    while (len) {
        if (st->pos == st->rate) {
            st->k->f1600(st->s);
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

/* SHAKE256 on k's permutation (keccak.h). */
void cs_shake256_init(cs_shake256 *st, const cs_keccak_impl *k)
{
    cs_shake_init(st, k ? k : &cs_keccak_portable, CS_SHAKE256_RATE);
}

/* As cs_shake_absorb. */
void cs_shake256_absorb(cs_shake256 *st, const uint8_t *in, size_t len)
{
    cs_shake_absorb(st, in, len);
}

/* As cs_shake_squeeze (finalizes on the first call). */
void cs_shake256_squeeze(cs_shake256 *st, uint8_t *out, size_t len)
{
    cs_shake_squeeze(st, out, len);
}
