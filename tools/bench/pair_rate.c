/* RSA CRT pair rate (issue 28): two independent secret-exponent modular
 * exponentiations of BITS-bit moduli with full-length exponents, by
 * libcrypto's BN_mod_exp_mont_consttime_x2 (BN_MONT_CTXs prepared, as RSA
 * holds them) and by each named kernel: its exp_x2 where it has one, else
 * two exp calls; contexts prepared once per modulus, as the shim's modulus
 * cache holds them, so the figure is the kernel's work without the BIGNUM
 * conversions. Sides alternate call by call within each round, so load from
 * other processes falls on all alike; per round, each side's median in
 * reference cycles (TSC), and its ratio to libcrypto's. libcrypto follows
 * OPENSSL_ia32cap, kernels run whatever the CPU has (use the matching
 * CRYPTOSHIM_CPU mode only through the shim).
 *
 * Build: make bench-tools (build/bench/pair_rate).
 * Usage: pair_rate [-b BITS] [-r ROUNDS] [-n CALLS] [-m] KERNEL...
 * Prints one line per round and side, then per side the median of the
 * round ratios with their minimum and maximum. -m instead times the
 * primitives: reference cycles per Montgomery multiplication and squaring
 * of one half, for each kernel's paired arithmetic (a paired call over two,
 * where it has one) and its single one, minima over batches of dependent
 * calls. */
#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/bn/bn_kernel.h"
#include "kernels/bn/engine.h"
#include "runtime/timer.h"

#define MAX_SIDES 8
#define MAX_CALLS 64
#define MAX_ROUNDS 64

static uint64_t rng = 0x243f6a8885a308d3ull;

/* xorshift64: reproducible numbers (their values do not matter). */
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A BIGNUM from n limbs. */
static BIGNUM *bn_of(const cs_limb *x, size_t n)
{
    unsigned char buf[CS_BN_MAX_LIMBS * 8];
    cs_limbs_to_le_bytes(buf, n * 8, x, n);
    return BN_lebin2bn(buf, (int)(n * 8), NULL);
}

/* Median of v[0..n-1] (sorts v). */
static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1], v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The kernel built in under this name, or NULL. */
static const cs_bn_kernel *kernel_named(const char *name)
{
    for (int i = 0; cs_bn_kernels[i]; i++)
        if (!strcmp(cs_bn_kernels[i]->name, name))
            return cs_bn_kernels[i];
    return NULL;
}

#define BATCH 64 /* dependent primitive calls a timed batch (-m) */

/* Reference cycles per half of f(x, x, y, ctx) (two halves when paired),
 * minimum over rounds batches. */
static double prim_cycles(cs_bn_mul_fn *f, cs_limb *x, const cs_limb *y, const void *ctx,
                          int halves, int rounds)
{
    double best = 1e18;
    for (int r = 0; r < rounds; r++) {
        uint64_t t0 = cs_timer_ticks();
        for (int i = 0; i < BATCH; i++)
            f(x, x, y, ctx);
        double c = (double)(cs_timer_ticks() - t0) / BATCH / halves;
        best = c < best ? c : best;
    }
    return best;
}

/* -m: kernel k's primitives on the prepared halves mt[0], mt[1]: its
 * paired mul and sqr (when it has a pair serving them) and its single
 * ones, per half. */
static void prim_line(const cs_bn_kernel *k, const cs_mont *mt, unsigned bits, int rounds)
{
    static cs_limb x[2 * CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb y[2 * CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static unsigned char ctx[1 << 14] __attribute__((aligned(64)));
    const cs_bn_prep *p = &mt[0].prep;
    memcpy(x, p->rr, p->words * sizeof *x);
    memcpy(y, p->rx, p->words * sizeof *y);
    double sm = prim_cycles(p->mul, x, y, p, 1, rounds);
    double sq = prim_cycles(p->sqr, x, x, p, 1, rounds);
    const cs_bn_pair_ops *po = k->ops->pair;
    size_t w = po && po->ctx_bytes <= sizeof ctx ? po->prepare(ctx, &mt[0].prep, &mt[1].prep) : 0;
    if (!w) {
        printf("%-14s %5u digits %3zu  single mul %6.0f sqr %6.0f\n", k->name, bits, p->iters,
               sm, sq);
        return;
    }
    po->join(x, mt[0].prep.rr, mt[1].prep.rr, ctx);
    po->join(y, mt[0].prep.rx, mt[1].prep.rx, ctx);
    double pm = prim_cycles(po->mul, x, y, ctx, 2, rounds);
    double pq = prim_cycles(po->sqr, x, x, ctx, 2, rounds);
    printf("%-14s %5u digits %3zu  single mul %6.0f sqr %6.0f  paired mul %6.0f sqr %6.0f "
           "(%.2fx, %.2fx)\n", k->name, bits, p->iters, sm, sq, pm, pq, sm / pm, sq / pq);
}

int main(int argc, char **argv)
{
    unsigned bits = 1024;
    int rounds = 9, calls = 15, prims = 0, opt;
    while ((opt = getopt(argc, argv, "b:r:n:m")) != -1) {
        if (opt == 'm')
            prims = 1;
        else if (opt == 'b')
            bits = (unsigned)atoi(optarg);
        else if (opt == 'r')
            rounds = atoi(optarg);
        else if (opt == 'n')
            calls = atoi(optarg);
        else
            return fprintf(stderr, "usage: pair_rate [-b BITS] [-r ROUNDS] [-n CALLS] [-m] "
                                   "KERNEL...\n"), 2;
    }
    if (bits < 512 || bits > 4096 || bits % 64 || rounds < 1 || rounds > MAX_ROUNDS ||
        calls < 1 || calls > MAX_CALLS || argc - optind > MAX_SIDES - 1)
        return fprintf(stderr, "pair_rate: bits 512..4096 (whole limbs), rounds 1..%d, calls 1..%d, "
                               "at most %d kernels\n", MAX_ROUNDS, MAX_CALLS, MAX_SIDES - 1), 2;
    const size_t n = bits / 64;
    static cs_mont mt[2];
    cs_limb m[2][CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS];
    for (int h = 0; h < 2; h++) {
        for (size_t i = 0; i < n; i++)
            m[h][i] = rnd64(), a[h][i] = rnd64(), e[h][i] = rnd64();
        m[h][0] |= 1, m[h][n - 1] |= 1ull << 63;
        a[h][n - 1] >>= 1, e[h][n - 1] |= 1ull << 63;
        if (cs_mont_init(&mt[h], m[h], n))
            return 1;
    }
    /* Side 0 is libcrypto; sides 1.. the kernels named. */
    const cs_bn_kernel *ks[MAX_SIDES] = {NULL};
    int sides = 1;
    for (int i = optind; i < argc; i++) {
        const cs_bn_kernel *k = kernel_named(argv[i]);
        if (!k)
            return fprintf(stderr, "pair_rate: no kernel %s in this build\n", argv[i]), 2;
        ks[sides++] = k;
    }
    /* Each kernel's own copy of the moduli, prepared for it (the cache). */
    static cs_mont kmt[MAX_SIDES][2];
    for (int s = 1; s < sides; s++)
        for (int h = 0; h < 2; h++) {
            kmt[s][h] = mt[h];
            if (cs_bn_prepare(ks[s], &kmt[s][h]))
                return fprintf(stderr, "pair_rate: %s does not serve %u bits\n", ks[s]->name,
                               bits), 1;
        }
    if (prims) {
        printf("# %u-bit halves: reference cycles (TSC) per multiplication or squaring of one "
               "half, minima of %d batches of %d\n", bits, 10 * rounds, BATCH);
        for (int s = 1; s < sides; s++)
            prim_line(ks[s], kmt[s], bits, 10 * rounds);
        return 0;
    }
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *bm[2], *ba[2], *be[2], *br[2];
    BN_MONT_CTX *mc[2];
    for (int h = 0; h < 2; h++) {
        bm[h] = bn_of(m[h], n), ba[h] = bn_of(a[h], n), be[h] = bn_of(e[h], n), br[h] = BN_new();
        BN_set_flags(be[h], BN_FLG_CONSTTIME);
        mc[h] = BN_MONT_CTX_new();
        BN_MONT_CTX_set(mc[h], bm[h], bctx);
    }
    /* Every side's answer once, against libcrypto's. */
    cs_limb r[2][CS_BN_MAX_LIMBS], want[2][CS_BN_MAX_LIMBS];
    BN_mod_exp_mont_consttime_x2(br[0], ba[0], be[0], bm[0], mc[0], br[1], ba[1], be[1], bm[1],
                                 mc[1], bctx);
    for (int h = 0; h < 2; h++) {
        unsigned char buf[CS_BN_MAX_LIMBS * 8];
        BN_bn2lebinpad(br[h], buf, (int)(n * 8));
        cs_limbs_from_le_bytes(want[h], n, buf, n * 8);
    }
    static double t[MAX_SIDES][MAX_ROUNDS][MAX_CALLS], med[MAX_SIDES][MAX_ROUNDS];
    printf("# %u-bit pairs, full-length secret exponents; reference cycles (TSC) a pair\n", bits);
    for (int rd = 0; rd < rounds; rd++) {
        for (int c = 0; c < calls; c++)
            for (int s = 0; s < sides; s++) {
                const cs_bn_kernel *k = ks[s];
                int rc = 0;
                uint64_t t0 = cs_timer_ticks();
                if (!k)
                    rc = !BN_mod_exp_mont_consttime_x2(br[0], ba[0], be[0], bm[0], mc[0], br[1],
                                                       ba[1], be[1], bm[1], mc[1], bctx);
                else if (k->exp_x2)
                    rc = k->exp_x2(r[0], a[0], e[0], bits, &kmt[s][0], r[1], a[1], e[1], bits,
                                   &kmt[s][1]);
                else
                    rc = k->exp(r[0], a[0], e[0], bits, &kmt[s][0], 1) ||
                         k->exp(r[1], a[1], e[1], bits, &kmt[s][1], 1);
                t[s][rd][c] = (double)(cs_timer_ticks() - t0);
                if (rc || (k && (memcmp(r[0], want[0], n * 8) || memcmp(r[1], want[1], n * 8))))
                    return fprintf(stderr, "pair_rate: %s failed or differs from libcrypto\n",
                                   k ? k->name : "libcrypto"), 1;
            }
        for (int s = 0; s < sides; s++) {
            med[s][rd] = median(t[s][rd], calls);
            printf("round %2d %-14s %10.0f  %.3fx\n", rd, ks[s] ? ks[s]->name : "libcrypto",
                   med[s][rd], med[0][rd] / med[s][rd]);
        }
    }
    printf("# side           speed-up over libcrypto: median of rounds [min, max]; pair path\n");
    for (int s = 1; s < sides; s++) {
        double q[MAX_ROUNDS], lo = 1e9, hi = 0;
        for (int rd = 0; rd < rounds; rd++) {
            q[rd] = med[0][rd] / med[s][rd];
            lo = q[rd] < lo ? q[rd] : lo, hi = q[rd] > hi ? q[rd] : hi;
        }
        printf("%-16s %.3fx [%.3f, %.3f]  %s\n", ks[s]->name, median(q, rounds), lo, hi,
               ks[s]->exp_x2 ? "exp_x2" : "two exp");
    }
    for (int h = 0; h < 2; h++) {
        BN_free(bm[h]), BN_free(ba[h]), BN_free(be[h]), BN_free(br[h]);
        BN_MONT_CTX_free(mc[h]);
    }
    BN_CTX_free(bctx);
    return 0;
}
