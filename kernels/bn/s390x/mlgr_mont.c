/* s390x Montgomery kernel: 64-bit limbs, each limb product by `mlgr` (the
 * 128-bit product lands in an even/odd register pair) and the additions by
 * algr/alcgr carry chains, in the coarsely integrated form (each row of
 * a*b[i] is followed by its reduction step on an n+2 limb running sum). The
 * z13 vector facility only multiplies 32-bit elements (two 64-bit products
 * per instruction), which does not beat one 64x64 mlgr per product, so this
 * kernel is scalar. No branch or memory index depends on number values. */
#include "../exp_ladder.h"
#include "../mont_cios.h"
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

/* r = a*b/R mod m for a, b < m; r may alias a or b. */
static void mlgr_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const cs_mont *mont)
{
    cs_cios_mont_mul(mac, r, a, b, mont);
}

/* r = a^2/2^(64n) mod m; r may alias a. */
static void mlgr_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    mlgr_mont_mul(r, a, a, mont);
}

/* Kernel entries: mont_mul and mont_sqr, wiping the stack they used. */
static void mlgr_mont_mul_entry(cs_limb *r, const cs_limb *a, const cs_limb *b,
                              const cs_mont *mont)
{
    cs_ladder_mul_entry(mlgr_mont_mul, r, a, b, mont);
}

static void mlgr_mont_sqr_entry(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    cs_ladder_mul_entry(mlgr_mont_mul, r, a, a, mont);
}

/* r = a^e mod m; see cs_bn_kernel.exp. */
static int mlgr_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
                    const cs_mont *mont, int consttime)
{
    return cs_ladder_exp(mlgr_mont_mul, mlgr_mont_sqr, r, a, e, ebits, mont, consttime);
}

const cs_bn_kernel cs_bn_s390x_mlgr = {
    .name = "s390x_mlgr",
    .cpu_features = 0,
    .min_bits = CS_BN_MIN_BITS,
    .max_bits = CS_BN_MAX_BITS,
    .mont_mul = mlgr_mont_mul_entry,
    .mont_sqr = mlgr_mont_sqr_entry,
    .exp = mlgr_exp,
};
