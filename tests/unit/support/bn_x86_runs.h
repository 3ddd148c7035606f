/* Whether this CPU runs an x86-64 big-number kernel, for the kernel and
 * constant-time tests of kernels/bn/x86_64 (kernel_bn_x86, ct_bn_x86 and
 * its emulated AVX-512 build). x86-64 only; header-only. */
#ifndef CRYPTOSHIM_TEST_BN_X86_RUNS_H
#define CRYPTOSHIM_TEST_BN_X86_RUNS_H

#if defined(__x86_64__)
#include "kernels/bn/bn_kernel.h"
#include "adx_probe.h"

/* Whether the CPU, as the compiler's probe and CPUID see it, offers what
 * k needs. avx512_emulated: the kernels' AVX-512 code runs emulated over
 * AVX2 (tests/unit/ctemu), so IFMA needs only AVX2 and AVX-512F nothing;
 * adx_by_running: ADX also counts where adcx/adox execute although CPUID
 * denies it (valgrind's CPUID). */
static int bn_x86_kernel_runs(const cs_bn_kernel *k, int avx512_emulated, int adx_by_running)
{
    __builtin_cpu_init();
    if (avx512_emulated) {
        if ((k->cpu_features & CS_CPU_AVX512IFMA) && !__builtin_cpu_supports("avx2"))
            return 0;
    } else {
        if ((k->cpu_features & CS_CPU_AVX512IFMA) &&
            !(__builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vl")))
            return 0;
        if ((k->cpu_features & CS_CPU_AVX512F) && !__builtin_cpu_supports("avx512f"))
            return 0;
    }
    if ((k->cpu_features & CS_CPU_AVX2) && !__builtin_cpu_supports("avx2"))
        return 0;
    if ((k->cpu_features & CS_CPU_FMA) && !__builtin_cpu_supports("fma"))
        return 0;
    if ((k->cpu_features & CS_CPU_BMI2) && !__builtin_cpu_supports("bmi2"))
        return 0;
    if (k->cpu_features & CS_CPU_ADX) {
        unsigned a, b, c, d;
        __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
        if (!(b & (1u << 19)) && !(adx_by_running && adx_executes()))
            return 0;
    }
    return 1;
}
#endif

#endif
