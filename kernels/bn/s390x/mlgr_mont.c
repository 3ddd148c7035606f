/* s390x Montgomery kernel: 64-bit limbs, each limb product by `mlgr` (the
 * 128-bit product lands in an even/odd register pair) and the additions by
 * algr/alcgr carry chains, in the coarsely integrated form (each row of
 * a*b[i] is followed by its reduction step on an n+2 limb running sum). The
 * z13 vector facility only multiplies 32-bit elements (two 64-bit products
 * per instruction), which does not beat one 64x64 mlgr per product, so this
 * kernel is scalar. No branch or memory index depends on number values. */
#include "../mont_cios.h"
#include "../limbs.h"
#include "s390x_kernels.h"

#if CS_LIMB_BITS != 64
#error "the s390x kernel uses 64-bit limbs"
#endif

/* Returns the low word of a*b + c + d and sets *hi to the high word. */
static inline cs_limb mac(cs_limb a, cs_limb b, cs_limb c, cs_limb d, cs_limb *hi)
{
    unsigned __int128 p = a; /* odd register of the pair holds a */
    cs_limb zero = 0;
    __asm__("mlgr\t%[p], %[b]\n\t"
            "algr\t%N[p], %[c]\n\t"
            "alcgr\t%[p], %[z]\n\t"
            "algr\t%N[p], %[d]\n\t"
            "alcgr\t%[p], %[z]"
            : [p] "+&d"(p)
            : [b] "d"(b), [c] "d"(c), [d] "d"(d), [z] "d"(zero)
            : "cc");
    *hi = (cs_limb)(p >> 64);
    return (cs_limb)p;
}

/* The engine's multiplication (cs_bn_mul_fn): r = a*b/R mod m, fully
 * reduced, over the context's plain limbs; r may alias a or b. */
static void mlgr_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *p = ctx;
    cs_cios_mont_mul(mac, r, a, b, p->m, p->n0, p->n);
}

CS_BN_LIMB_KERNEL(cs_bn_s390x_mlgr, "s390x_mlgr", 0, CS_BN_MIN_BITS, CS_BN_MAX_BITS, mlgr_mul, 0);
