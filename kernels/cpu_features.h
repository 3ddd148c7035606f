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
    /* AVX-512: each bit only with ZMM state enabled by the OS. Skylake-SP
     * and Cascade Lake have F, VL and BW without IFMA; every IFMA CPU has
     * all four. An implementation names each bit whose instructions it
     * uses (the compiler flags of its folder in mk/kernels_*.mk). */
    CS_CPU_AVX512IFMA = 1u << 4, /* AVX512-IFMA52 (with F; detected only with F) */
    CS_CPU_AVX512F = 1u << 5,    /* AVX512F */
    CS_CPU_AVX512VL = 1u << 6,   /* AVX512VL: EVEX forms on 128/256-bit registers */
    CS_CPU_AVX512BW = 1u << 7,   /* AVX512BW: 8- and 16-bit element forms */
    /* s390x */
    CS_CPU_S390_VX = 1u << 8,
    CS_CPU_S390_SHAKE = 1u << 9, /* CPACF KIMD/KLMD SHAKE function codes */
    /* SPARC */
    CS_CPU_SPARC_MUL32 = 1u << 12, /* v8 umul/smul */
};

/* The AVX-512 bits the SIMD tables (ML-DSA, ML-KEM, Keccak "avx512") use. */
#define CS_CPU_AVX512_FVLBW (CS_CPU_AVX512F | CS_CPU_AVX512VL | CS_CPU_AVX512BW)
/* Every AVX-512 bit (tests that emulate AVX-512 over AVX2 grant them all). */
#define CS_CPU_AVX512_ALL (CS_CPU_AVX512_FVLBW | CS_CPU_AVX512IFMA)

/* Names as used by CRYPTOSHIM_CPU and `cryptoshim info`. */
struct cs_cpu_feature_name {
    const char *name;
    uint32_t bit;
};

#endif
