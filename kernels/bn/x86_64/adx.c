/* ADX kernel: the scalar Montgomery of scalar.c with its row product in
 * inline assembly running two carry chains at once (adcx for the low words,
 * adox for the high words of mulx). Built with -mbmi2 -madx; run only where
 * both are present. */
#include "scalar.h"

/* t[0..n-1] += a*b with mulx/adcx/adox; returns the carry word. The loop
 * counter moves by lea and exits by jrcxz so neither carry flag is touched. */
static uint64_t row_adx(uint64_t *t, const uint64_t *a, uint64_t b, size_t n)
{
    uint64_t hi = 0, lo, acc, zero = 0;
    __asm__ volatile(
        "xor %k[lo], %k[lo]\n\t"            /* clears CF and OF */
        "1:\n\t"
        "mulx (%[a]), %[lo], %[acc]\n\t"    /* acc:lo = a[j] * b */
        "adcx (%[t]), %[lo]\n\t"            /* lo += t[j] + CF */
        "adox %[hi], %[lo]\n\t"             /* lo += previous high + OF */
        "mov %[lo], (%[t])\n\t"
        "mov %[acc], %[hi]\n\t"
        "lea 8(%[a]), %[a]\n\t"
        "lea 8(%[t]), %[t]\n\t"
        "lea -1(%[n]), %[n]\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n\t"
        "2:\n\t"
        "adcx %[zero], %[hi]\n\t"
        "adox %[zero], %[hi]\n\t"
        : [hi] "+&r"(hi), [lo] "=&r"(lo), [acc] "=&r"(acc), [a] "+&r"(a), [t] "+&r"(t),
          [n] "+c"(n)
        : "d"(b), [zero] "r"(zero)
        : "cc", "memory");
    return hi;
}

/* The engine's multiplication over plain limbs: full Montgomery product
 * with the ADX row. */
static void adx_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const void *ctx)
{
    const cs_bn_prep *c = ctx;
    scalar_mont(r, a, b, c->m, c->n0, c->n, row_adx);
}

CS_BN_LIMB_KERNEL(cs_bn_x86_adx, "x86_64-adx", CS_CPU_BMI2 | CS_CPU_ADX, 256, SCALAR_MAX_BITS, adx_mul, 1);
