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

/* xv_amm_fn over plain limbs: full Montgomery product with the ADX row. */
static void adx_amm(uint64_t *r, const uint64_t *a, const uint64_t *b, const xv_ctx *c)
{
    scalar_mont(r, a, b, c->m, c->n0, c->K, row_adx);
}

/* Kernel entry: r = a*b/R mod m. */
static void adx_mont_mul(cs_limb *r, const cs_limb *a, const cs_limb *b, const cs_mont *mont)
{
    scalar_mont(r, a, b, mont->m, mont->n0, mont->n, row_adx);
    cs_wipe_stack(CS_BN_WIPE_STACK);
}

/* Kernel entry: r = a*a/R mod m. */
static void adx_mont_sqr(cs_limb *r, const cs_limb *a, const cs_mont *mont)
{
    adx_mont_mul(r, a, a, mont);
}

/* Fills c for mont with 64-bit digits over adx_amm; -1 above SCALAR_MAX_BITS. */
static int adx_setup(xv_ctx *c, const cs_mont *mont)
{
    if (mont->bits > SCALAR_MAX_BITS)
        return -1;
    return xv_setup(c, mont, 64, adx_amm, adx_amm);
}

/* Kernel entry: r = a^e mod m over the shared ladders with 64-bit digits. */
static int adx_exp(cs_limb *r, const cs_limb *a, const cs_limb *e, size_t ebits,
                   const cs_mont *mont, int consttime)
{
    xv_ctx c;
    if (ebits > CS_BN_MAX_EXP_BITS || adx_setup(&c, mont))
        return -1;
    int ret = xv_exp(&c, r, a, e, ebits, consttime);
    cs_wipe_stack(CS_BN_WIPE_STACK);
    return ret;
}

XV_KERNEL_EXP2(adx, adx_setup)

const cs_bn_kernel cs_bn_x86_adx = {
    .name = "x86_64-adx",
    .cpu_features = CS_CPU_BMI2 | CS_CPU_ADX,
    .min_bits = 256,
    .max_bits = SCALAR_MAX_BITS,
    .mont_mul = adx_mont_mul,
    .mont_sqr = adx_mont_sqr,
    .exp = adx_exp,
    .exp2 = adx_exp2,
};
