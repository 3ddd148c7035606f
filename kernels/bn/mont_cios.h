/* Word-serial Montgomery multiplication shared by per-ISA kernels that bring
 * only their own limb multiply-accumulate (kernels/bn/sparc, kernels/bn/s390x):
 * the coarsely integrated form, each row of a*b[i] followed at once by its
 * reduction step so the running sum stays n+2 limbs. Header only: the
 * kernel's `mac` is inlined through the constant pointer. No branch or
 * memory index depends on number values. */
#ifndef CRYPTOSHIM_BN_MONT_CIOS_H
#define CRYPTOSHIM_BN_MONT_CIOS_H

#include <string.h>

#include "../ct.h"
#include "bn_kernel.h"

/* Returns the low word of a*b + c + d and sets *hi to the high word. */
typedef cs_limb (*cs_mac_fn)(cs_limb a, cs_limb b, cs_limb c, cs_limb d, cs_limb *hi);

/* r = t - m if t + top*2^(CS_LIMB_BITS*n) >= m else t, without branching. */
static inline void cs_cios_cond_sub(cs_limb *r, const cs_limb *t, cs_limb top, const cs_limb *m,
                                    size_t n)
{
    cs_limb d[CS_BN_MAX_LIMBS];
    cs_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_limb x = t[j], y = m[j];
        cs_limb s = x - y - borrow;
        borrow = ((~x & y) | (~(x ^ y) & s)) >> (CS_LIMB_BITS - 1);
        d[j] = s;
    }
    /* keep t when there was a borrow out and no top word */
    cs_limb keep = (cs_limb)0 - (borrow & ~top & 1);
    for (size_t j = 0; j < n; j++)
        r[j] = (cs_limb)cs_ct_select(keep, t[j], d[j]);
}

/* r = a*b/R mod m for a, b < m (m odd, n limbs, n0 = -m^-1 mod 2^CS_LIMB_BITS),
 * with the kernel's multiply-accumulate; r may alias a or b. */
static inline __attribute__((always_inline)) void
cs_cios_mont_mul(cs_mac_fn mac, cs_limb *r, const cs_limb *a, const cs_limb *b,
                 const cs_limb *m, cs_limb n0, size_t n)
{
    cs_limb t[CS_BN_MAX_LIMBS + 2];
    memset(t, 0, (n + 2) * sizeof(cs_limb));
    for (size_t i = 0; i < n; i++) {
        cs_limb bi = b[i], c = 0, hi;
        for (size_t j = 0; j < n; j++) {
            t[j] = mac(a[j], bi, t[j], c, &hi);
            c = hi;
        }
        cs_limb s = t[n] + c;
        t[n + 1] = s < c;
        t[n] = s;
        cs_limb q = t[0] * n0;
        mac(q, m[0], t[0], 0, &c);
        for (size_t j = 1; j < n; j++) {
            t[j - 1] = mac(q, m[j], t[j], c, &hi);
            c = hi;
        }
        s = t[n] + c;
        t[n - 1] = s;
        t[n] = t[n + 1] + (s < c);
    }
    cs_cios_cond_sub(r, t, t[n], m, n);
}

#endif
