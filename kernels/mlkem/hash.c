/* FIPS 203's hash functions H (SHA3-256), G (SHA3-512) and J (SHAKE256 to
 * 32 bytes) on the cs_shake sponge of kernels/keccak: SHA3 differs from
 * SHAKE only in its domain bits (01 instead of 1111) and its rate. */
#include "../ct.h"
#include "mlkem_backend.h"

/* SHA3 padding (domain bits 01, then pad10*1) of an absorbing sponge, leaving
 * it ready for cs_shake_squeeze (which permutes first). */
static void sha3_finalize(cs_shake *st)
{
    st->s[st->pos >> 3] ^= (uint64_t)0x06 << (8 * (st->pos & 7));
    st->s[(st->rate - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((st->rate - 1) & 7));
    st->pos = st->rate;
    st->squeezing = 1;
}

/* SHA3 of a || b with rate bytes, outlen bytes of output. */
static void sha3(const cs_keccak_impl *k, unsigned rate, uint8_t *out, size_t outlen,
                 const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    cs_shake st;
    cs_shake_init(&st, k, rate);
    cs_shake_absorb(&st, a, alen);
    cs_shake_absorb(&st, b, blen);
    sha3_finalize(&st);
    cs_shake_squeeze(&st, out, outlen);
    cs_wipe(&st, sizeof st);
}

/* H(in) = SHA3-256. */
void cs_mlkem_hash_h(const cs_keccak_impl *k, uint8_t out[32], const uint8_t *in, size_t len)
{
    sha3(k, 136, out, 32, in, len, NULL, 0);
}

/* G(a || b) = SHA3-512. */
void cs_mlkem_hash_g(const cs_keccak_impl *k, uint8_t out[64], const uint8_t *a, size_t alen,
                     const uint8_t *b, size_t blen)
{
    sha3(k, 72, out, 64, a, alen, b, blen);
}

/* J(a || b) = SHAKE256(a || b, 32). */
void cs_mlkem_hash_j(const cs_keccak_impl *k, uint8_t out[32], const uint8_t *a, size_t alen,
                     const uint8_t *b, size_t blen)
{
    cs_shake st;
    cs_shake_init(&st, k, CS_SHAKE256_RATE);
    cs_shake_absorb(&st, a, alen);
    cs_shake_absorb(&st, b, blen);
    cs_shake_squeeze(&st, out, 32);
    cs_wipe(&st, sizeof st);
}
