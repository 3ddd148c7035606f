/* SPARC v8 Montgomery kernel: 32-bit limbs, every limb product by the v8
 * `umul` (high word from %y) with addcc/addx carry chains, in the
 * coarsely integrated form (each row of a*b[i] is followed at once by its
 * reduction step, so the running sum stays n+2 limbs). Built with
 * -mcpu=v8 (mk/oldhw.mk) and selected only when the kernel reports the
 * multiply/divide hardware capability; v7 CPUs keep the portable kernel.
 * No branch or memory index depends on number values. */
#include "../exp_ladder.h"
#include "../mont_cios.h"
#include "sparc_kernels.h"

#if CS_LIMB_BITS != 32
#error "the SPARC v8 kernel uses 32-bit limbs"
#endif

/* lo = a*b + c + d, *hi = the carry word; cannot overflow 64 bits. */
static inline cs_limb mac(cs_limb a, cs_limb b, cs_limb c, cs_limb d, cs_limb *hi)
{
    cs_limb lo, h;
    __asm__("umul\t%[a], %[b], %[lo]\n\t"
            "rd\t%%y, %[h]\n\t"
            "addcc\t%[lo], %[c], %[lo]\n\t"
            "addx\t%[h], 0, %[h]\n\t"
            "addcc\t%[lo], %[d], %[lo]\n\t"
            "addx\t%[h], 0, %[h]"
            : [lo] "=&r"(lo), [h] "=&r"(h)
            : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d)
            : "cc");
    *hi = h;
    return lo;
}

/* r = a*b/R mod m for a, b < m; r may alias a or b. */
static void v8_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const cs_mont *mont)
{
    cs_cios_mont_mul(mac, r, a, b, mont);
}

/* r = a^2/2^(32n) mod m; r may alias a. */
static void v8_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    v8_mont_mul(r, a, a, mont);
}

/* Kernel entries: mont_mul and mont_sqr, wiping the stack they used. */
static void v8_mont_mul_entry(cs_limb *r, const cs_limb *a, const cs_limb *b,
                              const cs_mont *mont)
{
    cs_ladder_mul_entry(v8_mont_mul, r, a, b, mont);
}

static void v8_mont_sqr_entry(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    cs_ladder_mul_entry(v8_mont_mul, r, a, a, mont);
}

/* r = a^e mod m; see cs_bn_kernel.exp. */
static int v8_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
                  const cs_mont *mont, int consttime)
{
    return cs_ladder_exp(v8_mont_mul, v8_mont_sqr, r, a, e, ebits, mont, consttime);
}

const cs_bn_kernel cs_bn_sparc_v8 = {
    .name = "sparc_v8",
    .cpu_features = CS_CPU_SPARC_MUL32,
    .min_bits = CS_BN_MIN_BITS,
    .max_bits = CS_BN_MAX_BITS,
    .mont_mul = v8_mont_mul_entry,
    .mont_sqr = v8_mont_sqr_entry,
    .exp = v8_exp,
};
