/* SPARC v8 Montgomery kernel: 32-bit limbs, every limb product by the v8
 * `umul` (high word from %y) with addcc/addx carry chains, in the
 * coarsely integrated form (each row of a*b[i] is followed at once by its
 * reduction step, so the running sum stays n+2 limbs). Built with
 * -mcpu=v8 (mk/oldhw.mk) and selected only when the kernel reports the
 * multiply/divide hardware capability; v7 CPUs keep the portable kernel.
 * No branch or memory index depends on number values. */
#include "../mont_cios.h"
#include "../limbs.h"
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

/* The engine's multiplication (cs_bn_mul_fn): r = a*b/R mod m, fully
 * reduced, over the context's plain limbs; r may alias a or b. */
static void v8_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *p = ctx;
    cs_cios_mont_mul(mac, r, a, b, p->m, p->n0, p->n);
}

CS_BN_LIMB_KERNEL(cs_bn_sparc_v8, "sparc_v8", CS_CPU_SPARC_MUL32, CS_BN_MIN_BITS, CS_BN_MAX_BITS, v8_mul, 0);
