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

/* Compresses nblocks 128-byte blocks at p into the chaining value h. */
void cs_sha512_blocks(uint64_t h[8], const uint8_t *p, size_t nblocks);

/* Starts a SHA-512 computation. */
void cs_sha512_init(cs_sha512_ctx *c);
/* Absorbs n bytes at p (p may be NULL when n is 0). */
void cs_sha512_update(cs_sha512_ctx *c, const void *p, size_t n);
/* Writes the digest and wipes the context. */
void cs_sha512_final(cs_sha512_ctx *c, uint8_t out[CS_SHA512_BYTES]);
/* out = SHA-512(p[0..n)). */
void cs_sha512(uint8_t out[CS_SHA512_BYTES], const void *p, size_t n);

#endif
