/* SPARC v8 Montgomery kernel: 32-bit limbs, every limb product by the v8
 * `umul` (high word from %y) with addcc/addx carry chains, in the
 * coarsely integrated form (each row of a*b[i] is followed at once by its
 * reduction step, so the running sum stays n+2 limbs). Built with
 * -mcpu=v8 (mk/oldhw.mk) and selected only when the kernel reports the
 * multiply/divide hardware capability; v7 CPUs keep the portable kernel.
 * No branch or memory index depends on number values. */
#include <string.h>

#include "../exp_ladder.h"
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

/* r = t - m if (t + top*2^(32n)) >= m else t, without branching on values. */
static void cond_sub(cs_limb *r, const cs_limb *t, cs_limb top, const cs_limb *m, size_t n)
{
    cs_limb d[CS_BN_MAX_LIMBS];
    cs_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        cs_limb x = t[j], y = m[j];
        cs_limb s = x - y - borrow;
        borrow = ((~x & y) | (~(x ^ y) & s)) >> 31;
        d[j] = s;
    }
    /* keep t when there was a borrow out and no top word */
    cs_limb keep = (cs_limb)0 - (borrow & ~top & 1);
    for (size_t j = 0; j < n; j++)
        r[j] = (t[j] & keep) | (d[j] & ~keep);
}

/* r = a*b/2^(32n) mod m for a, b < m; r may alias a or b. */
static void v8_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const cs_mont *mont)
{
    size_t n = mont->n;
    const cs_limb *m = mont->m;
    cs_limb n0 = mont->n0;
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
    cond_sub(r, t, t[n], m, n);
}

/* r = a^2/2^(32n) mod m; r may alias a. */
static void v8_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    v8_mont_mul(r, a, a, mont);
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
    .mont_mul = v8_mont_mul,
    .mont_sqr = v8_mont_sqr,
    .exp = v8_exp,
};
