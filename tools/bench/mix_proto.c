/* Prototype for issue 28's mixed pair: the FMA kernel's 21-digit product
 * scanning (fma.c's ps_core, extracted by mix_proto.sh into
 * build/mix_core.inc as mx_core with SROWS steps added) with the rows of a
 * 16-limb scalar Montgomery product (mix_row.h) placed between its blocks:
 * 17 steps of about one row each, two in each low block (before its q rows
 * and before its q digits), one in each high block. Times the rows alone,
 * the FMA product alone and the fused one (reference cycles, minima over
 * batches); with an argument it runs each 1000 times untimed, for
 * instruction counts under valgrind --tool=callgrind. Built and run by
 * tools/bench/mix_proto.sh. */
#include <stdio.h>
#include <string.h>

#include "kernels/bn/x86_64/fma_core.h"
#include "tools/bench/mix_row.h"
#include "tools/bench/timer.h"

struct srows {
    uint64_t *t;
    const uint64_t *a, *b, *m;
    uint64_t n0;
};

/* The rows of step k of 17. */
#define SROWS(sr, k)                                                                       \
    do {                                                                                   \
        if (sr)                                                                            \
            for (size_t i_ = 16 * (size_t)(k) / 17; i_ < 16 * ((size_t)(k) + 1) / 17; i_++)   \
                mix_row(sr->t, sr->a, sr->b[i_], sr->m, sr->n0);                           \
    } while (0)

#include "mix_core.inc" /* build/, from mix_proto.sh */

static __attribute__((noinline)) void fma_only(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                               uint64_t n0, int sq)
{
    if (sq)
        mx_core(r, a, a, m, n0, 6, 21, 1, NULL);
    else
        mx_core(r, a, a, m, n0, 6, 21, 0, NULL);
}

static __attribute__((noinline)) void scal_only(uint64_t *t, const uint64_t *a,
                                                const uint64_t *m, uint64_t n0)
{
    memset(t, 0, 18 * 8);
    for (int i = 0; i < 16; i++)
        mix_row(t, a, a[i], m, n0);
}

static __attribute__((noinline)) void fused(uint64_t *r, const uint64_t *a, uint64_t *t,
                                            const uint64_t *as, const uint64_t *ms, uint64_t n0s,
                                            const uint64_t *m, uint64_t n0, int sq)
{
    struct srows s = {t, as, as, ms, n0s};
    memset(t, 0, 18 * 8);
    if (sq)
        mx_core(r, a, a, m, n0, 6, 21, 1, &s);
    else
        mx_core(r, a, a, m, n0, 6, 21, 0, &s);
}

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    (void)argv;
    static uint64_t md[24] __attribute__((aligned(64))), xd[24] __attribute__((aligned(64)));
    static uint64_t rd[24] __attribute__((aligned(64)));
    static uint64_t ms[16], xs[16], t[18];
    for (int i = 0; i < 21; i++)
        md[i] = rnd64() & MW, xd[i] = rnd64() & MW;
    md[0] |= 1, md[20] &= (1ull << 23) - 1, md[20] |= 1ull << 22, xd[20] = 0;
    for (int i = 0; i < 16; i++)
        ms[i] = rnd64(), xs[i] = rnd64();
    ms[0] |= 1, ms[15] |= 1ull << 63, xs[15] >>= 2;
    uint64_t n0s = 1, n0d;
    for (int i = 0; i < 6; i++)
        n0s *= 2 - ms[0] * n0s;
    n0s = -n0s;
    n0d = 1;
    for (int i = 0; i < 6; i++)
        n0d *= 2 - md[0] * n0d;
    n0d = (-n0d) & MW;
    if (argc > 1) { /* instruction counts (valgrind --tool=callgrind): 1000 calls each */
        for (int i = 0; i < 1000; i++)
            scal_only(t, xs, ms, n0s), fma_only(rd, xd, md, n0d, 1), fma_only(rd, xd, md, n0d, 0),
                fused(rd, xd, t, xs, ms, n0s, md, n0d, 1);
        return 0;
    }
    for (int sq = 1; sq >= 0; sq--)
        for (int rep = 0; rep < 3; rep++) {
            double best[3] = {1e18, 1e18, 1e18};
            for (int r = 0; r < 300; r++) {
                uint64_t t0 = cs_timer_ticks();
                for (int i = 0; i < 64; i++)
                    scal_only(t, xs, ms, n0s);
                uint64_t t1 = cs_timer_ticks();
                for (int i = 0; i < 64; i++)
                    fma_only(rd, xd, md, n0d, sq);
                uint64_t t2 = cs_timer_ticks();
                for (int i = 0; i < 64; i++)
                    fused(rd, xd, t, xs, ms, n0s, md, n0d, sq);
                uint64_t t3 = cs_timer_ticks();
                double c[3] = {(t1 - t0) / 64.0, (t2 - t1) / 64.0, (t3 - t2) / 64.0};
                for (int k = 0; k < 3; k++)
                    best[k] = c[k] < best[k] ? c[k] : best[k];
            }
            printf("%s: scalar rows %.0f, fma %.0f, fused %.0f (sum/fused %.2fx)\n",
                   sq ? "sqr" : "mul", best[0], best[1], best[2], (best[0] + best[1]) / best[2]);
        }
    return 0;
}
