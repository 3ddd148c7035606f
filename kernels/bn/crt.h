/* RSA CRT recombination on limbs: the step after the two half
 * exponentiations, in constant time (bn/rsa_crt.c calls it). */
#ifndef CRYPTOSHIM_BN_CRT_H
#define CRYPTOSHIM_BN_CRT_H

#include "bn_kernel.h"

/* out (2n limbs) = mq + q * (((mp - mq) mod p) * iqmp mod p), stock's
 * formula for the message from mp = c^dmp1 mod p and mq = c^dmq1 mod q, for
 * primes p, q of equal bit length (so q < 2p) in n limbs, mp < p, mq < q,
 * and mont_p the constants of p (cs_mont_init). No branch or index depends
 * on p, q, iqmp, mp or mq. Returns 0, or -1 (out untouched) when iqmp is not
 * below p: that one bit, a property of the key, is declassified. */
int cs_bn_crt_recombine(cs_limb *out, const cs_limb *mp, const cs_limb *mq, const cs_limb *p,
                        const cs_limb *q, const cs_limb *iqmp, const cs_mont *mont_p, size_t n);

#endif
