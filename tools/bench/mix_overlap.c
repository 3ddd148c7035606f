/* Overlap probe for issue 28's mixed pair: reference cycles (TSC) of
 * 1024-bit Montgomery squarings and multiplications on the scalar
 * multiplier alone (x86_64-adx, or x86_64-mulx), on the FMA units alone
 * (x86_64-fma), and of both in one loop (independent operands, each call's
 * result feeding its own next call), minima over batches. The ratio
 * (scalar + fma) / both says how much the two units overlap when the
 * out-of-order core sees the two streams one call apart.
 *
 * Build (after `make`):
 *   cc -O2 -I. tools/bench/mix_overlap.c build/obj/kernels/ct.o \
 *      $(ls build/obj/kernels/bn/{,x86_64/}*.o) -o build/mix_overlap
 * Usage: mix_overlap [SCALAR_KERNEL]   (default x86_64-adx) */
#include <stdio.h>
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "kernels/bn/engine.h"
#include "tools/bench/timer.h"

#define BATCH 64
#define ROUNDS 200

static uint64_t rng = 0x243f6a8885a308d3ull;

/* xorshift64: reproducible numbers. */
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random odd 1024-bit modulus's constants, prepared for kernel k. */
static void make_mont(cs_mont *mt, const cs_bn_kernel *k)
{
    cs_limb m[16];
    for (int i = 0; i < 16; i++)
        m[i] = rnd64();
    m[0] |= 1, m[15] |= 1ull << 63;
    cs_mont_init(mt, m, 16);
    if (cs_bn_prepare(k, mt))
        fprintf(stderr, "%s does not serve 1024 bits\n", k->name);
}

static const cs_bn_kernel *by_name(const char *name)
{
    for (size_t i = 0; cs_bn_kernels[i]; i++)
        if (!strcmp(cs_bn_kernels[i]->name, name))
            return cs_bn_kernels[i];
    return NULL;
}

/* Minimum cycles of a batch of BATCH steps: which = 1 scalar only, 2 fma
 * only, 3 both in one loop; sq selects squaring. */
static double run(int which, int sq, const cs_bn_prep *ps, const cs_bn_prep *pf, cs_limb *xs,
                  cs_limb *xf, const cs_limb *ys, const cs_limb *yf)
{
    double best = 1e18;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = cs_timer_ticks();
        for (int i = 0; i < BATCH; i++) {
            if (which & 1)
                (sq ? ps->sqr : ps->mul)(xs, xs, sq ? xs : ys, ps);
            if (which & 2)
                (sq ? pf->sqr : pf->mul)(xf, xf, sq ? xf : yf, pf);
        }
        double c = (double)(cs_timer_ticks() - t0) / BATCH;
        best = c < best ? c : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    const cs_bn_kernel *ks = by_name(argc > 1 ? argv[1] : "x86_64-adx");
    const cs_bn_kernel *kf = by_name("x86_64-fma");
    if (!ks || !kf)
        return fprintf(stderr, "kernel missing\n"), 1;
    static cs_mont ms, mf;
    make_mont(&ms, ks);
    make_mont(&mf, kf);
    static cs_limb xs[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb xf[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb ys[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb yf[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    memcpy(xs, ms.prep.rr, sizeof xs);
    memcpy(ys, ms.prep.rx, sizeof ys);
    memcpy(xf, mf.prep.rr, sizeof xf);
    memcpy(yf, mf.prep.rx, sizeof yf);
    for (int sq = 1; sq >= 0; sq--) {
        double s = run(1, sq, &ms.prep, &mf.prep, xs, xf, ys, yf);
        double f = run(2, sq, &ms.prep, &mf.prep, xs, xf, ys, yf);
        double b = run(3, sq, &ms.prep, &mf.prep, xs, xf, ys, yf);
        printf("%s %s: scalar %.0f fma %.0f both %.0f  (sum/both %.2fx, both/max %.2f)\n",
               ks->name, sq ? "sqr" : "mul", s, f, b, (s + f) / b, b / (s > f ? s : f));
    }
    return 0;
}
