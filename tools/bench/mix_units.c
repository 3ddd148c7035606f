/* Issue 28's unit probes: whether the scalar multiplier and the FMA units
 * work at the same time in one instruction stream, and how many simple
 * instructions a cycle this core retires. (1) One 16-limb Montgomery row
 * (mix_row.h) a step, alone, beside k independent 256-bit FMAs, and both in
 * one loop, for k = 16..128; (2) a loop of 14 independent one-cycle
 * instructions (8 scalar adds, 6 vpaddq) and its branch. Reference cycles
 * (TSC), minima over rounds. Built and run by tools/bench/mix_proto.sh. */
#include <immintrin.h>
#include <stdio.h>

#include "tools/bench/mix_row.h"
#include "tools/bench/timer.h"

#define STEPS 256

static uint64_t t[18], a[16], m[16];

/* rows Montgomery rows, each followed by 8n independent FMAs on acc (rows 0:
 * FMAs only, STEPS*n iterations' worth passed as n). */
static __attribute__((noinline)) void steps(__m256d *acc, int rows, int n)
{
    __m256d a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    __m256d a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
    const __m256d x = _mm256_set1_pd(1.0000001), y = _mm256_set1_pd(0.9999999);
    for (int r = 0; r < (rows ? rows : 1); r++) {
        if (rows)
            mix_row(t, a, a[r & 15], m, 0x1234567);
        for (int i = 0; i < n; i++) {
            __asm__("" : "+x"(a0)); /* keeps the loop */
            a0 = _mm256_fmadd_pd(a0, x, y), a1 = _mm256_fmadd_pd(a1, x, y);
            a2 = _mm256_fmadd_pd(a2, x, y), a3 = _mm256_fmadd_pd(a3, x, y);
            a4 = _mm256_fmadd_pd(a4, x, y), a5 = _mm256_fmadd_pd(a5, x, y);
            a6 = _mm256_fmadd_pd(a6, x, y), a7 = _mm256_fmadd_pd(a7, x, y);
        }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    acc[4] = a4, acc[5] = a5, acc[6] = a6, acc[7] = a7;
}

/* Reference cycles of n iterations of 14 independent one-cycle
 * instructions and dec/jnz. */
static uint64_t width_loop(uint64_t n)
{
    uint64_t t0 = cs_timer_ticks();
    __asm__ volatile("1:\n\t"
                     "add $1, %%rax\n\tadd $1, %%rbx\n\tadd $1, %%rsi\n\tadd $1, %%rdi\n\t"
                     "add $1, %%r8\n\tadd $1, %%r9\n\tadd $1, %%r10\n\tadd $1, %%r11\n\t"
                     "vpaddq %%ymm1, %%ymm0, %%ymm0\n\tvpaddq %%ymm1, %%ymm2, %%ymm2\n\t"
                     "vpaddq %%ymm1, %%ymm3, %%ymm3\n\tvpaddq %%ymm1, %%ymm4, %%ymm4\n\t"
                     "vpaddq %%ymm1, %%ymm5, %%ymm5\n\tvpaddq %%ymm1, %%ymm6, %%ymm6\n\t"
                     "dec %%rcx\n\tjnz 1b"
                     : "+c"(n)
                     :
                     : "rax", "rbx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1",
                       "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "cc");
    return cs_timer_ticks() - t0;
}

int main(void)
{
    static __m256d acc[8];
    for (int i = 0; i < 16; i++)
        a[i] = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull, m[i] = ~a[i] | 1;
    for (int n = 2; n <= 16; n *= 2) {
        double b[3] = {1e18, 1e18, 1e18};
        for (int r = 0; r < 200; r++) {
            uint64_t t0 = cs_timer_ticks();
            steps(acc, STEPS, 0);
            uint64_t t1 = cs_timer_ticks();
            steps(acc, 0, STEPS * n);
            uint64_t t2 = cs_timer_ticks();
            steps(acc, STEPS, n);
            uint64_t t3 = cs_timer_ticks();
            double c[3] = {(double)(t1 - t0) / STEPS, (double)(t2 - t1) / STEPS,
                           (double)(t3 - t2) / STEPS};
            for (int k = 0; k < 3; k++)
                b[k] = c[k] < b[k] ? c[k] : b[k];
        }
        printf("row + %3d FMAs a step: row %.1f, FMAs %.1f, both %.1f (sum/both %.2fx)\n", 8 * n,
               b[0], b[1], b[2], (b[0] + b[1]) / b[2]);
    }
    double best = 1e18;
    for (int r = 0; r < 50; r++) {
        double c = (double)width_loop(1000000) / 1e6;
        best = c < best ? c : best;
    }
    printf("issue width: 15 instructions in %.2f reference cycles (%.2f a reference cycle)\n",
           best, 15 / best);
    return 0;
}
