/* Whether adcx and adox execute here, found by running them under a SIGILL
 * handler: under valgrind CPUID denies ADX even where valgrind executes it,
 * so the constant-time tests cannot go by the CPU probe (adx_executes:
 * x86-64 only; ct_cpu_probe: the CPU probe with that correction).
 * Header-only, for the ct_* tests. */
#ifndef CRYPTOSHIM_TEST_ADX_PROBE_H
#define CRYPTOSHIM_TEST_ADX_PROBE_H

#include <stdint.h>

#include "runtime/cpu.h"

#if defined(__x86_64__)
#include <setjmp.h>
#include <signal.h>
#include <string.h>

static sigjmp_buf adx_probe_jmp;

/* SIGILL during the probe. */
static void adx_probe_sigill(int sig)
{
    siglongjmp(adx_probe_jmp, sig);
}

/* 1 if adcx and adox execute, else 0. */
static int adx_executes(void)
{
    struct sigaction sa, old;
    volatile int ok = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = adx_probe_sigill;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, &old);
    if (sigsetjmp(adx_probe_jmp, 1) == 0) {
        unsigned long long x = 1, y = 2;
        __asm__ volatile("adcx %1, %0\n\tadox %1, %0" : "+r"(x) : "r"(y) : "cc");
        ok = x != 0;
    }
    sigaction(SIGILL, &old, NULL);
    return ok;
}
#endif

/* cs_cpu_probe(), with CS_CPU_ADX where adcx and adox execute though the
 * CPU probe says no (valgrind). */
static inline uint32_t ct_cpu_probe(void)
{
    uint32_t have = cs_cpu_probe();
#if defined(__x86_64__)
    if (!(have & CS_CPU_ADX) && adx_executes())
        have |= CS_CPU_ADX;
#endif
    return have;
}

#endif
