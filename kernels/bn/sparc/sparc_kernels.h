/* SPARC big-number kernels (built for 32-bit SPARC only). */
#ifndef CRYPTOSHIM_BN_SPARC_KERNELS_H
#define CRYPTOSHIM_BN_SPARC_KERNELS_H

#include "../bn_kernel.h"

/* SPARC v8 umul (32x32->64 into %y:rd); needs CS_CPU_SPARC_MUL32. */
extern const cs_bn_kernel cs_bn_sparc_v8;

#endif
