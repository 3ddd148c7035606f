/* Keccak-f[1600] as a kernel family: the permutations of one implementation
 * in one table (cs_keccak_impl: one state, two, four or eight at once, and
 * the fused vector-plus-scalar forms), the built-in tables, and one SHAKE
 * sponge (cs_shake) that absorbs and squeezes incrementally on a table's
 * scalar permutation. No OpenSSL here.
 *
 * Lanes: lane i of a state is bytes 8i..8i+7 of the 200-byte state read
 * little-endian, so byte absorption is endian-clean. A k-way permutation
 * takes its states interleaved: s[k*i + j] is lane i of state j (one
 * k-lane vector per lane index). */
#ifndef CRYPTOSHIM_KECCAK_H
#define CRYPTOSHIM_KECCAK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../cpu_features.h"
#include "../impl.h"

#define CS_SHAKE128_RATE 168
#define CS_SHAKE256_RATE 136

typedef struct cs_keccak_impl {
    CS_IMPL_HEAD; /* name ("portable", "avx2", "avx512", "s390x_cpacf"), cpu_features */
    /* One permutation of s[25]. */
    void (*f1600)(uint64_t s[25]);
    /* Two, four, eight permutations, interleaved (s[k*i + j]); x4 may be
     * NULL where four scalar calls are the faster way (CPACF), x8 is NULL
     * without 512-bit vectors. */
    void (*f1600_x2)(uint64_t s[50]);
    void (*f1600_x4)(uint64_t s[100]);
    void (*f1600_x8)(uint64_t s[200]);
    /* Four (eight) interleaved permutations and a fifth (ninth) state s1 in
     * the same instruction stream; NULL where there is no such form. */
    void (*f1600_x4x1)(uint64_t s4[100], uint64_t s1[25]);
    void (*f1600_x8x1)(uint64_t s8[200], uint64_t s1[25]);
} cs_keccak_impl;

extern const cs_keccak_impl cs_keccak_portable;
/* All built-in tables, NULL-terminated, in the registry's order
 * (kernels/impl.h: portable first). The shim's dispatcher chooses one
 * (runtime/dispatch.h, cs_dispatch_keccak) and passes it explicitly. */
extern const cs_keccak_impl *const cs_keccak_impls[];

/* A SHAKE128/256 sponge: absorb any number of times, then squeeze any
 * number of times (the first squeeze pads). Plain data: copy it to fork a
 * stream. pos counts the bytes absorbed into (or squeezed from) the
 * current block. */
typedef struct cs_shake {
    uint64_t s[25];
    unsigned pos, rate;
    unsigned squeezing;
    const cs_keccak_impl *k;
} cs_shake;

/* Empty sponge of rate bytes (CS_SHAKE128_RATE or CS_SHAKE256_RATE)
 * permuting with k->f1600. */
void cs_shake_init(cs_shake *st, const cs_keccak_impl *k, unsigned rate);
/* Absorbs len bytes; must not follow a squeeze. */
void cs_shake_absorb(cs_shake *st, const uint8_t *in, size_t len);
/* XORs up to the end of the current block without permuting; returns the
 * bytes taken. The caller permutes st->s itself once st->pos == st->rate
 * and then sets st->pos = 0 (for permutations fused with others). */
size_t cs_shake_fill(cs_shake *st, const uint8_t *in, size_t len);
/* SHAKE padding (domain bits 1111); idempotent, implied by the first squeeze. */
void cs_shake_finalize(cs_shake *st);
/* Squeezes len bytes, padding first if still absorbing. */
void cs_shake_squeeze(cs_shake *st, uint8_t *out, size_t len);

/* Incremental SHAKE256 permuting with k (NULL: portable), for mu over a
 * streamed message (mldsa.h) and other single streams. */
typedef cs_shake cs_shake256;
void cs_shake256_init(cs_shake256 *st, const cs_keccak_impl *k);
void cs_shake256_absorb(cs_shake256 *st, const uint8_t *in, size_t len);
void cs_shake256_squeeze(cs_shake256 *st, uint8_t *out, size_t len); /* finalizes on first call */

/* Little-endian loads and stores, endian-clean (compilers fold them into
 * one move, or a byte-reversed load on big-endian machines). */
static inline uint64_t cs_load64_le(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void cs_store64_le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
#else
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

#endif
