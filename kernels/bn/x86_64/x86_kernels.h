/* The x86-64 kernels, for kernels/bn/kernels.c and the tests. */
#ifndef CRYPTOSHIM_BN_X86_KERNELS_H
#define CRYPTOSHIM_BN_X86_KERNELS_H

#include "../bn_kernel.h"

extern const cs_bn_kernel cs_bn_x86_ifma;  /* AVX-512 IFMA, 52-bit digits */
extern const cs_bn_kernel cs_bn_x86_avx2;  /* AVX2, 28-bit digits */
extern const cs_bn_kernel cs_bn_x86_fma;   /* AVX2 + FMA, 50-bit digits in doubles */
extern const cs_bn_kernel cs_bn_x86_adx;   /* scalar MULX + ADCX/ADOX */
extern const cs_bn_kernel cs_bn_x86_mulx;  /* scalar MULX, BMI2 without ADX */


/* The IFMA kernel's paired exponentiation (ifma_x2.c), its exp_x2 entry:
 * 987..1038-bit moduli, else -1. */
int cs_ifma_exp_x2(cs_limb *r0, const cs_limb *a0, const cs_limb *e0, size_t ebits0,
                   const cs_mont *mont0, cs_limb *r1, const cs_limb *a1, const cs_limb *e1,
                   size_t ebits1, const cs_mont *mont1);

#endif
