/* Arithmetic modulo L = 2^252 + 27742317777372353535851937790883648493,
 * the order of Ed25519's base point, on 32-byte little-endian scalars.
 * Portable (32-bit words with 64-bit products, so every target builds
 * it). Constant time unless a function says otherwise. */
#ifndef CRYPTOSHIM_C25519_SCALAR25519_H
#define CRYPTOSHIM_C25519_SCALAR25519_H

#include <stdint.h>

/* out = in mod L, in a 64-byte little-endian number (a SHA-512 digest);
 * out may alias the first half of in. */
void cs_sc25519_reduce64(uint8_t out[32], const uint8_t in[64]);
/* s = (a * b + c) mod L for a, c < 2^253 (reduced scalars) and any
 * 32-byte b below 2^256 (a clamped private scalar); s may alias any input. */
void cs_sc25519_muladd(uint8_t s[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]);
/* 1 when s < L (a canonical signature scalar), else 0; decided as
 * OpenSSL's ossl_ed25519_verify does. Variable time: s is public. */
int cs_sc25519_is_canonical(const uint8_t s[32]);

#endif
