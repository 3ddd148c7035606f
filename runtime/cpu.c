/* CPU feature detection: cpuid/xgetbv on x86-64, getauxval elsewhere. */
#include <stddef.h>
#include <stdint.h>

#include "kernels/cpu_features.h"
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
    /* AVX-512 F(16), and VL(31), BW(30), IFMA(21) each only with F, all
     * with ZMM state enabled. */
    if (zmm && (b & (1u << 16))) {
        f |= CS_CPU_AVX512F;
        if (b & (1u << 31))
            f |= CS_CPU_AVX512VL;
        if (b & (1u << 30))
            f |= CS_CPU_AVX512BW;
        if (b & (1u << 21))
            f |= CS_CPU_AVX512IFMA;
    }
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
    {"avx512ifma", CS_CPU_AVX512IFMA}, {"avx512f", CS_CPU_AVX512F},
    {"avx512vl", CS_CPU_AVX512VL}, {"avx512bw", CS_CPU_AVX512BW},
    {"vx", CS_CPU_S390_VX},
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

uint32_t cs_cpu_hide_closure(uint32_t hidden)
{
    /* Feature, and what it needs besides itself. Kernels declare only the
     * features they test for; these are the ones their code also uses. */
    static const struct {
        uint32_t feature, needs;
    } deps[] = {
        {CS_CPU_FMA, CS_CPU_AVX2},
        {CS_CPU_AVX512F, CS_CPU_AVX2},
        {CS_CPU_AVX512IFMA, CS_CPU_AVX512F},
        {CS_CPU_AVX512VL, CS_CPU_AVX512F},
        {CS_CPU_AVX512BW, CS_CPU_AVX512F},
        {CS_CPU_S390_SHAKE, CS_CPU_S390_VX},
    };
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < sizeof deps / sizeof deps[0]; i++)
            if ((hidden & deps[i].needs) && !(hidden & deps[i].feature)) {
                hidden |= deps[i].feature;
                changed = 1;
            }
    }
    return hidden;
}

/* Appends src to out (capacity cap), truncating. */
static void append(char *out, size_t cap, const char *src)
{
    size_t n = 0;
    while (n < cap && out[n])
        n++;
    for (; n + 1 < cap && *src; src++)
        out[n++] = *src;
    if (n < cap)
        out[n] = 0;
}

void cs_cpu_signature(char *out, size_t cap)
{
    char head[40] = "";
    if (!cap)
        return;
    out[0] = 0;
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        unsigned v[3] = {b, d, c};
        char vendor[13];
        for (int i = 0; i < 12; i++) {
            char ch = (char)(v[i / 4] >> (8 * (i % 4)));
            vendor[i] = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ? ch : '_';
        }
        vendor[12] = 0;
        append(head, sizeof head, vendor);
    }
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        /* Family and model (with their extended fields), not the stepping. */
        static const char hex[] = "0123456789abcdef";
        char fm[11] = "-";
        unsigned sig = a & 0x0fff0ff0u;
        for (int i = 0; i < 8; i++)
            fm[1 + i] = hex[(sig >> (28 - 4 * i)) & 15];
        fm[9] = 0;
        append(head, sizeof head, fm);
    }
#elif defined(__s390x__)
    append(head, sizeof head, "s390x");
#elif defined(__sparc__)
    append(head, sizeof head, "sparc");
#elif defined(__aarch64__)
    append(head, sizeof head, "aarch64");
#else
    append(head, sizeof head, "other");
#endif
    append(out, cap, head);
    append(out, cap, ":");
    uint32_t f = cs_cpu_probe();
    int any = 0;
    /* avx512f, avx512vl and avx512bw are left out, so policy files written
     * before those bits existed keep matching their CPU (a CPU's family and
     * model already tell them apart). */
    uint32_t left_out = CS_CPU_AVX512F | CS_CPU_AVX512VL | CS_CPU_AVX512BW;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((f & names[i].bit) && !(names[i].bit & left_out)) {
            append(out, cap, any ? "+" : "");
            append(out, cap, names[i].name);
            any = 1;
        }
    if (!any)
        append(out, cap, "none");
}
