/* SHA-512 (FIPS 180-4) for Ed25519 inside the curve family: the hash
 * RFC 8032 needs, with no OpenSSL. Streaming context plus a one-shot.
 * No branch or memory index depends on the data hashed (only on lengths),
 * so hashing a private key or a nonce is constant time. */
#ifndef CRYPTOSHIM_C25519_SHA512_H
#define CRYPTOSHIM_C25519_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define CS_SHA512_BYTES 64
#define CS_SHA512_BLOCK 128

typedef struct cs_sha512_ctx {
    uint64_t h[8];
    uint64_t total; /* bytes absorbed so far (messages below 2^61 bytes) */
    size_t fill;    /* bytes waiting in buf */
    uint8_t buf[CS_SHA512_BLOCK];
} cs_sha512_ctx;

/* Compresses nblocks 128-byte blocks at p into the chaining value h:
 * with the installed transform when there is one, else in portable C. */
void cs_sha512_blocks(uint64_t h[8], const uint8_t *p, size_t nblocks);

/* A one-block compression with the interface of libcrypto's
 * SHA512_Transform(SHA512_CTX *c, const unsigned char *block): it reads
 * and writes only the chaining value, the eight words at the start of c
 * (SHA512_CTX's public layout from 1.1.1 to 4.0). libcrypto's runs its
 * AVX2/AVX/SSSE3 code: 3.3 cycles a byte on Zen 3 against this file's 6.6,
 * so a long message's hashing does not eat what the curve code saves. */
typedef void (*cs_sha512_transform_fn)(void *ctx, const unsigned char *block);
/* Installs fn (NULL: back to portable C) for every later compression, in
 * every thread; the shim calls it once it has resolved libcrypto. fn must
 * be constant time in the data, as SHA512_Transform is. */
void cs_sha512_set_transform(cs_sha512_transform_fn fn);

/* Starts a SHA-512 computation. */
void cs_sha512_init(cs_sha512_ctx *c);
/* Absorbs n bytes at p (p may be NULL when n is 0). */
void cs_sha512_update(cs_sha512_ctx *c, const void *p, size_t n);
/* Writes the digest and wipes the context. */
void cs_sha512_final(cs_sha512_ctx *c, uint8_t out[CS_SHA512_BYTES]);
/* out = SHA-512(p[0..n)). */
void cs_sha512(uint8_t out[CS_SHA512_BYTES], const void *p, size_t n);

#endif
