/* CPU feature bits shared by kernels (which declare what they need) and the
 * shim (which detects what the CPU has). No OpenSSL here. */
#ifndef CRYPTOSHIM_CPU_FEATURES_H
#define CRYPTOSHIM_CPU_FEATURES_H

#include <stdint.h>

enum cs_cpu_feature {
    /* x86-64 */
    CS_CPU_BMI2 = 1u << 0,
    CS_CPU_ADX = 1u << 1,
    CS_CPU_AVX2 = 1u << 2, /* includes OS support for YMM state */
    CS_CPU_FMA = 1u << 3,
    CS_CPU_AVX512IFMA = 1u << 4, /* AVX512F+VL+BW+IFMA and ZMM state */
    CS_CPU_AVX512F = 1u << 5,    /* AVX512F and ZMM state (IFMA implies it) */
    /* s390x */
    CS_CPU_S390_VX = 1u << 8,
    CS_CPU_S390_SHAKE = 1u << 9, /* CPACF KIMD/KLMD SHAKE function codes */
    /* SPARC */
    CS_CPU_SPARC_MUL32 = 1u << 12, /* v8 umul/smul */
};

/* Names as used by CRYPTOSHIM_CPU and `cryptoshim info`. */
struct cs_cpu_feature_name {
    const char *name;
    uint32_t bit;
};

#endif
