/* A small thread-safe cache of Montgomery constants per modulus: RSA verify,
 * RSA CRT halves and DH reuse the same moduli call after call. */
#ifndef CRYPTOSHIM_MONT_CACHE_H
#define CRYPTOSHIM_MONT_CACHE_H

#include "kernels/bn/bn_kernel.h"

/* Fills *mont for modulus m (n limbs), from the cache or by computing it
 * (and caching it), with kernel k's context prepared (mont->prep, cached
 * with the modulus; k may be NULL, or not serve m: then it is left empty).
 * Returns 0, or -1 if m is unusable (even). Never blocks: when another
 * thread holds the cache it computes without caching. */
int cs_mont_cache_get(cs_mont *mont, const cs_limb *m, size_t n, const cs_bn_kernel *k);

#endif
