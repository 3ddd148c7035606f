/* CPU feature detection: cpuid/xgetbv on x86-64, getauxval elsewhere. */
#include <stddef.h>
#include <stdint.h>

#include "../kernels/cpu_features.h"
#include "cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

uint32_t cs_cpu_probe(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    int ymm = (xcr0 & 0x6) == 0x6, zmm = ymm && (xcr0 & 0xe0) == 0xe0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 8))
        f |= CS_CPU_BMI2;
    if (b & (1u << 19))
        f |= CS_CPU_ADX;
    if (avx && ymm && (b & (1u << 5)))
        f |= CS_CPU_AVX2;
    if ((f & CS_CPU_AVX2) && fma)
        f |= CS_CPU_FMA;
    /* AVX512 F(16) BW(30) VL(31) IFMA(21) with ZMM state enabled. */
    uint32_t need = (1u << 16) | (1u << 21) | (1u << 30) | (1u << 31);
    if (zmm && (b & need) == need)
        f |= CS_CPU_AVX512IFMA;
    return f;
}
#elif defined(__linux__)
#include <sys/auxv.h>

uint32_t cs_cpu_probe(void)
{
    uint32_t f = 0;
    unsigned long hw = getauxval(AT_HWCAP);
#if defined(__s390x__)
    if (hw & 2048UL) /* HWCAP_S390_VXRS */
        f |= CS_CPU_S390_VX;
    f |= cs_cpu_probe_s390_shake();
#elif defined(__sparc__)
    if (hw & 8UL) /* HWCAP_SPARC_MULDIV: v8 umul/udiv */
        f |= CS_CPU_SPARC_MUL32;
#else
    (void)hw;
#endif
    return f;
}
#else
uint32_t cs_cpu_probe(void) { return 0; }
#endif

#if defined(__s390x__)
/* The CPACF query is added with the s390x backend; until then, none. */
__attribute__((weak)) uint32_t cs_cpu_probe_s390_shake(void) { return 0; }
#endif

static const struct cs_cpu_feature_name names[] = {
    {"bmi2", CS_CPU_BMI2},         {"adx", CS_CPU_ADX},
    {"avx2", CS_CPU_AVX2},         {"fma", CS_CPU_FMA},
    {"avx512ifma", CS_CPU_AVX512IFMA}, {"vx", CS_CPU_S390_VX},
    {"cpacf-shake", CS_CPU_S390_SHAKE}, {"mul32", CS_CPU_SPARC_MUL32},
};

uint32_t cs_cpu_feature_by_name(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *n = names[i].name;
        size_t j = 0;
        while (j < len && n[j] && n[j] == name[j])
            j++;
        if (j == len && !n[j])
            return names[i].bit;
    }
    return 0;
}

const char *cs_cpu_feature_name(uint32_t bit)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].bit == bit)
            return names[i].name;
    return NULL;
}
