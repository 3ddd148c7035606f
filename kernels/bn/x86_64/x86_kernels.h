/* The x86-64 kernels, for kernels/bn/kernels.c and the tests. */
#ifndef CRYPTOSHIM_BN_X86_KERNELS_H
#define CRYPTOSHIM_BN_X86_KERNELS_H

#include "../bn_kernel.h"

extern const cs_bn_kernel cs_bn_x86_ifma;  /* AVX-512 IFMA, 52-bit digits */
extern const cs_bn_kernel cs_bn_x86_avx2;  /* AVX2, 28-bit digits */
extern const cs_bn_kernel cs_bn_x86_fma;   /* AVX2 + FMA, 50-bit digits in doubles */
extern const cs_bn_kernel cs_bn_x86_fma512; /* AVX-512F + FMA, 52-bit digits in doubles */
extern const cs_bn_kernel cs_bn_x86_adx;   /* scalar MULX + ADCX/ADOX */
extern const cs_bn_kernel cs_bn_x86_mulx;  /* scalar MULX, BMI2 without ADX */

#endif
