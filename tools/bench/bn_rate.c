/* Port-bound analysis of the big-number kernels (issue 16): reference
 * cycles (rdtsc) per Montgomery multiplication and per squaring of every
 * kernel this CPU runs, and of libcrypto's BN_mod_mul_montgomery, against
 * the multiplier bound of each kernel's instruction set; plus a full-length
 * secret-exponent exponentiation per side. Each figure is the minimum over
 * batches of dependent calls (the exponentiation's own chain), which load
 * from other processes can only raise: minima are the load-independent
 * measure on a shared machine.
 *
 * Build: make bench-tools (build/bench/bn_rate).
 * Usage: bn_rate [BITS,...] [KERNEL...]; libcrypto follows OPENSSL_ia32cap.
 *        bn_rate x2 [BITS,...] [KERNEL] [ROUNDS]: paired mode (x2_line).
 * The libcrypto measured is the one loaded: build/openssl35/bin/run
 * build/bench/bn_rate ... runs OpenSSL 3.5's.
 * Prints one line per (side, bits): digits, reference cycles per mul and
 * sqr, the bound in core cycles, core cycles over bound (core cycles per
 * reference cycle estimated from a dependent-add chain), and the
 * exponentiation in microseconds. */
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "kernels/bn/bn_kernel.h"
#include "kernels/bn/engine.h"
#include "runtime/timer.h"

#define BATCH 64  /* dependent calls per timed batch */
#define ROUNDS 40 /* batches; the minimum is kept */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* Core cycles per reference cycle (core_per_ref): bounds are in core
 * cycles, the counter in reference cycles. */
static double cpr = 1.0;

/* xorshift64: reproducible test numbers (the values do not matter). */
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Reference cycles now, ordered against the work around it. */
static uint64_t tsc(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

/* Core cycles per reference cycle: a chain of dependent register adds runs
 * one a core cycle, so 8 adds per iteration cost 8 core cycles (not adds of
 * an immediate, which recent Intel cores fold at rename). */
static double core_per_ref(void)
{
    double best = 1e9;
    for (int r = 0; r < 20; r++) {
        uint64_t n = 1000000, x = 0, t0 = tsc();
        __asm__ volatile("1:\n\t"
                         "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
                         "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
                         "dec %1\n\tjnz 1b"
                         : "+r"(x), "+r"(n));
        double q = (double)(tsc() - t0) / 8e6;
        if (q < best)
            best = q;
    }
    return 1.0 / best;
}

/* Instruction-set class of a kernel: the multiplier bound it is held to. */
enum cls { SCALAR, FMA, FMA512, AVX2, IFMA };

static enum cls class_of(const char *name)
{
    if (strstr(name, "fma512"))
        return FMA512;
    if (strstr(name, "fma") && !strstr(name, "ifma"))
        return FMA;
    if (strstr(name, "avx2"))
        return AVX2;
    if (strstr(name, "ifma"))
        return IFMA;
    return SCALAR;
}

/* Cycles a multiplication (sqr = 0) or a squaring (sqr = 1: cross
 * products once) needs at the multiplier bound, d digits: d^2 products for
 * a*b (d(d+1)/2 for a^2) and d^2 for the reduction, at one 64x64 MULX a
 * cycle; FMA: a product is two FMAs (high and low part), 2 ports x 4
 * lanes; FMA512: the same on 2 ports x 8 lanes (Intel model 167 retires
 * two independent 512-bit FMAs a core cycle); AVX2: one vpmuludq, 2 ports
 * x 4 lanes; IFMA: two vpmadd52 (lo, hi), 8 lanes a cycle. */
static double bound(enum cls c, double d, int sqr)
{
    double prods = (sqr ? d * (d + 1) / 2 : d * d) + d * d;
    switch (c) {
    case FMA: return prods * 2 / 8;
    case FMA512: return prods * 2 / 16;
    case AVX2: return prods / 8;
    case IFMA: return prods * 2 / 8;
    default: return prods;
    }
}

/* Fills m with a random odd modulus of exactly bits bits (n limbs), and a,
 * b, e with values below it / a bits-bit exponent. */
static void numbers(uint64_t *m, uint64_t *a, uint64_t *b, uint64_t *e, unsigned bits)
{
    size_t n = bits / 64;
    for (size_t i = 0; i < n; i++) {
        m[i] = rnd64();
        a[i] = rnd64();
        b[i] = rnd64();
        e[i] = rnd64();
    }
    m[0] |= 1;
    m[n - 1] |= 1ull << 63;
    a[n - 1] >>= 1;
    b[n - 1] >>= 1;
    e[n - 1] |= 1ull << 63;
}

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

/* Exponentiations are long enough to be preempted on a loaded machine:
 * up to EXP_MAX runs, the minimum kept, while they take under a second
 * (estimated from the fastest run so far). */
#define EXP_MAX 25
static int spent(int runs, double best, double ghz)
{
    return runs * best / (ghz * 1e9) < 1.0;
}

/* One line for kernel k at bits. */
static void kernel_line(const cs_bn_kernel *k, unsigned bits, double ghz)
{
    static cs_mont mont;
    uint64_t m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], e[CS_BN_MAX_LIMBS];
    static cs_limb x[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb y[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    size_t n = bits / 64;
    numbers(m, a, b, e, bits);
    if (bits < k->min_bits || bits > k->max_bits || cs_mont_init(&mont, m, n) ||
        cs_bn_prepare(k, &mont))
        return;
    const cs_bn_prep *p = &mont.prep;
    k->ops->load(x, a, p);
    k->ops->load(y, b, p);
    double cm = 1e18, cq = 1e18, ce = 1e18;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = tsc();
        for (int i = 0; i < BATCH; i++)
            p->mul(x, x, y, p);
        uint64_t t1 = tsc();
        for (int i = 0; i < BATCH; i++)
            p->sqr(x, x, x, p);
        uint64_t t2 = tsc();
        cm = min_d(cm, (double)(t1 - t0) / BATCH);
        cq = min_d(cq, (double)(t2 - t1) / BATCH);
    }
    cs_limb rr[CS_BN_MAX_LIMBS];
    for (int r = 0; r < EXP_MAX && (r < 3 || spent(r, ce, ghz)); r++) {
        uint64_t t0 = tsc();
        k->exp(rr, a, e, bits, &mont, 1);
        ce = min_d(ce, (double)(tsc() - t0));
    }
    enum cls c = class_of(k->name);
    double bm = bound(c, (double)p->iters, 0), bq = bound(c, (double)p->iters, p->sqr != p->mul);
    printf("%-12s %5u %3zu/%-2u %8.0f %8.0f %5.2f %8.0f %8.0f %5.2f %9.1f %s\n", k->name, bits,
           p->iters, p->w, cm, bm, cm * cpr / bm, cq, bq, cq * cpr / bq, ce / ghz / 1e3,
           p->sqr != p->mul ? "own-sqr" : "sqr=mul");
}

/* Two bits-bit secret-exponent exponentiations' operands (random odd
 * moduli m, bases a, exponents e; b is numbers()' scratch) with k's
 * per-modulus constants prepared in mt, and their results by exp_x2 (r)
 * and by two exp calls (s). */
struct pair {
    cs_mont mt[2];
    uint64_t m[2][CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS],
        e[2][CS_BN_MAX_LIMBS];
    cs_limb r[2][CS_BN_MAX_LIMBS], s[2][CS_BN_MAX_LIMBS];
};

/* Fills p for k at bits; 0 when k cannot take the moduli. */
static int pair_setup(const cs_bn_kernel *k, unsigned bits, struct pair *p)
{
    for (int h = 0; h < 2; h++) {
        numbers(p->m[h], p->a[h], p->b, p->e[h], bits);
        if (cs_mont_init(&p->mt[h], p->m[h], bits / 64) || cs_bn_prepare(k, &p->mt[h]))
            return 0;
    }
    return 1;
}

/* Both of p's exponentiations by k's exp_x2 into p->r; its status. */
static int pair_x2(const cs_bn_kernel *k, unsigned bits, struct pair *p)
{
    return k->exp_x2(p->r[0], p->a[0], p->e[0], bits, &p->mt[0], p->r[1], p->a[1], p->e[1],
                     bits, &p->mt[1]);
}

/* The same by two of k's exp calls into p->s; nonzero when one failed. */
static int pair_two_exp(const cs_bn_kernel *k, unsigned bits, struct pair *p)
{
    return k->exp(p->s[0], p->a[0], p->e[0], bits, &p->mt[0], 1) |
           k->exp(p->s[1], p->a[1], p->e[1], bits, &p->mt[1], 1);
}

/* For a kernel with a paired entry: two bits-bit secret exponentiations
 * through exp_x2 against two exp calls (min of 5 each, microseconds), the
 * results compared (a mismatch is reported: this is a benchmark, the
 * tests check correctness). */
static void pair_line(const cs_bn_kernel *k, unsigned bits, double ghz)
{
    static struct pair p;
    size_t n = bits / 64;
    if (!pair_setup(k, bits, &p))
        return;
    double c2 = 1e18, c1 = 1e18;
    int bad = 0;
    for (int t = 0; t < 5; t++) {
        uint64_t t0 = tsc();
        int rc = pair_x2(k, bits, &p);
        uint64_t t1 = tsc();
        (void)pair_two_exp(k, bits, &p);
        uint64_t t2 = tsc();
        if (rc)
            return;
        bad |= memcmp(p.r[0], p.s[0], n * sizeof p.r[0][0]) != 0 ||
               memcmp(p.r[1], p.s[1], n * sizeof p.r[1][0]) != 0;
        c2 = min_d(c2, (double)(t1 - t0));
        c1 = min_d(c1, (double)(t2 - t1));
    }
    printf("%-12s %5u pair: exp_x2 %.1f us, two exp %.1f us (%.2fx)%s\n", k->name, bits,
           c2 / ghz / 1e3, c1 / ghz / 1e3, c1 / c2, bad ? " MISMATCH" : "");
}

/* The same line for libcrypto: BN_mod_mul_montgomery with a prepared
 * BN_MONT_CTX (a == b takes its squaring code), and BN_mod_exp_mont_consttime. */
static void libcrypto_line(unsigned bits, double ghz)
{
    uint64_t m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], e[CS_BN_MAX_LIMBS];
    size_t n = bits / 64;
    numbers(m, a, b, e, bits);
    unsigned char buf[CS_BN_MAX_LIMBS * 8];
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *bm = BN_new(), *ba = BN_new(), *bb = BN_new(), *be = BN_new(), *br = BN_new();
    cs_limbs_to_le_bytes(buf, n * 8, m, n);
    BN_lebin2bn(buf, (int)(n * 8), bm);
    cs_limbs_to_le_bytes(buf, n * 8, a, n);
    BN_lebin2bn(buf, (int)(n * 8), ba);
    cs_limbs_to_le_bytes(buf, n * 8, b, n);
    BN_lebin2bn(buf, (int)(n * 8), bb);
    cs_limbs_to_le_bytes(buf, n * 8, e, n);
    BN_lebin2bn(buf, (int)(n * 8), be);
    BN_MONT_CTX *mc = BN_MONT_CTX_new();
    BN_MONT_CTX_set(mc, bm, bctx);
    BN_set_flags(be, BN_FLG_CONSTTIME);
    BN_to_montgomery(ba, ba, mc, bctx);
    BN_to_montgomery(bb, bb, mc, bctx);
    double cm = 1e18, cq = 1e18, ce = 1e18;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = tsc();
        for (int i = 0; i < BATCH; i++)
            BN_mod_mul_montgomery(ba, ba, bb, mc, bctx);
        uint64_t t1 = tsc();
        for (int i = 0; i < BATCH; i++)
            BN_mod_mul_montgomery(ba, ba, ba, mc, bctx);
        uint64_t t2 = tsc();
        cm = min_d(cm, (double)(t1 - t0) / BATCH);
        cq = min_d(cq, (double)(t2 - t1) / BATCH);
    }
    BN_from_montgomery(ba, ba, mc, bctx);
    for (int r = 0; r < EXP_MAX && (r < 3 || spent(r, ce, ghz)); r++) {
        uint64_t t0 = tsc();
        BN_mod_exp_mont_consttime(br, ba, be, bm, bctx, mc);
        ce = min_d(ce, (double)(tsc() - t0));
    }
    /* Its fixed window is 5 from 2048 bits on x86-64 (4 at 1024-1536 for
     * some paths): bits squarings, bits/5 multiplications, 32 for the table. */
    double ops = bits + bits / 5.0 + 32;
    double bnd = bound(SCALAR, (double)n, 0), bq = bound(SCALAR, (double)n, 1);
    printf("%-12s %5u %3zu/%-2u %8.0f %8.0f %5.2f %8.0f %8.0f %5.2f %9.1f exp/op %.0f\n",
           "libcrypto", bits, n, 64, cm, bnd, cm * cpr / bnd, cq, bq, cq * cpr / bq, ce / ghz / 1e3,
           ce / ops);
    BN_MONT_CTX_free(mc);
    BN_free(bm), BN_free(ba), BN_free(bb), BN_free(be), BN_free(br);
    BN_CTX_free(bctx);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorts v). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* BIGNUM of the n limbs x. */
static BIGNUM *bn_of(const uint64_t *x, size_t n)
{
    unsigned char buf[CS_BN_MAX_LIMBS * 8];
    cs_limbs_to_le_bytes(buf, n * 8, x, n);
    return BN_lebin2bn(buf, (int)(n * 8), NULL);
}

/* Paired mode, one line per side at bits: two bits-bit secret-exponent
 * exponentiations (random odd moduli of exactly bits bits, full-length
 * exponents, per-modulus constants prepared beforehand as the shim's cache
 * and RSA's BN_MONT_CTX hold them) by k's exp_x2, by two of k's exp calls,
 * and by the loaded libcrypto's BN_mod_exp_mont_consttime_x2, the three
 * alternating within each of `rounds` rounds (the order rotating). Wall
 * microseconds per pair: median [quartiles]; ratios of libcrypto's time
 * over ours, median of the rounds' ratios [quartiles]: a round that other
 * processes preempt is one sample, not the range. Results compared. */
static void x2_line(const cs_bn_kernel *k, unsigned bits, int rounds)
{
    static struct pair p;
    size_t n = bits / 64;
    if (!pair_setup(k, bits, &p))
        return;
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *bm[2], *ba[2], *be[2], *br[2];
    BN_MONT_CTX *mc[2];
    for (int h = 0; h < 2; h++) {
        bm[h] = bn_of(p.m[h], n), ba[h] = bn_of(p.a[h], n), be[h] = bn_of(p.e[h], n);
        br[h] = BN_new();
        BN_set_flags(be[h], BN_FLG_CONSTTIME);
        mc[h] = BN_MONT_CTX_new();
        BN_MONT_CTX_set(mc[h], bm[h], bctx);
    }
    enum { PAIR, SINGLES, STOCK, SIDES };
    static const char *const side[SIDES] = {"pair", "two-exp", "libcrypto-x2"};
    double t[SIDES][64], q[2][64];
    int bad = 0;
    if (rounds > 64)
        rounds = 64;
    for (int rd = 0; rd < rounds; rd++) {
        for (int j = 0; j < SIDES; j++) {
            int w = (j + rd) % SIDES;
            double t0 = cs_timer_wall();
            if (w == PAIR)
                bad |= pair_x2(k, bits, &p);
            else if (w == SINGLES)
                bad |= pair_two_exp(k, bits, &p);
            else
                bad |= !BN_mod_exp_mont_consttime_x2(br[0], ba[0], be[0], bm[0], mc[0], br[1],
                                                     ba[1], be[1], bm[1], mc[1], bctx);
            t[w][rd] = (cs_timer_wall() - t0) * 1e6;
        }
        q[0][rd] = t[STOCK][rd] / t[PAIR][rd];
        q[1][rd] = t[SINGLES][rd] / t[PAIR][rd];
    }
    for (int h = 0; h < 2; h++) {
        BIGNUM *g = bn_of(p.r[h], n), *g2 = bn_of(p.s[h], n);
        bad |= BN_cmp(g, br[h]) != 0 || BN_cmp(g2, br[h]) != 0;
        BN_free(g), BN_free(g2);
    }
    for (int w = 0; w < SIDES; w++) {
        double md = median(t[w], rounds);
        printf("%-12s %5u %-13s %9.1f us [%.1f..%.1f]\n", k->name, bits, side[w], md,
               t[w][rounds / 4], t[w][(3 * rounds) / 4]);
    }
    for (int i = 0; i < 2; i++) {
        double md = median(q[i], rounds);
        printf("%-12s %5u %-13s %6.2fx [%.2f..%.2f] over %d rounds%s\n", k->name, bits,
               i ? "two-exp/pair" : "libcrypto/pair", md, q[i][rounds / 4],
               q[i][(3 * rounds) / 4], rounds, bad ? " MISMATCH" : "");
    }
    for (int h = 0; h < 2; h++) {
        BN_free(bm[h]), BN_free(ba[h]), BN_free(be[h]), BN_free(br[h]);
        BN_MONT_CTX_free(mc[h]);
    }
    BN_CTX_free(bctx);
}

/* Whether the CPU has ADX (CPUID leaf 7: clang 14 has no "adx" for
 * __builtin_cpu_supports). */
static int has_adx(void)
{
    unsigned a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
    return (b >> 19) & 1;
}

/* Whether this CPU runs kernel k. */
static int runs(const cs_bn_kernel *k)
{
    __builtin_cpu_init();
    uint32_t f = k->cpu_features;
    return (!(f & CS_CPU_BMI2) || __builtin_cpu_supports("bmi2")) &&
           (!(f & CS_CPU_ADX) || has_adx()) &&
           (!(f & CS_CPU_AVX2) || __builtin_cpu_supports("avx2")) &&
           (!(f & CS_CPU_FMA) || __builtin_cpu_supports("fma")) &&
           (!(f & CS_CPU_AVX512F) || __builtin_cpu_supports("avx512f")) &&
           (!(f & CS_CPU_AVX512IFMA) || __builtin_cpu_supports("avx512ifma"));
}

/* bn_rate x2 [BITS,...] [KERNEL] [ROUNDS]: x2_line for each size (default
 * 1024,1536,2048; kernel x86_64-ifma; 15 rounds). */
static int x2_main(int argc, char **argv)
{
    unsigned sizes[16] = {1024, 1536, 2048};
    int ns = 3;
    if (argc > 2) {
        ns = 0;
        for (char *s = strtok(argv[2], ","); s && ns < 16; s = strtok(NULL, ","))
            sizes[ns++] = (unsigned)atoi(s);
    }
    const char *name = argc > 3 ? argv[3] : "x86_64-ifma";
    int rounds = argc > 4 ? atoi(argv[4]) : 15;
    const cs_bn_kernel *k = NULL;
    for (int i = 0; cs_bn_kernels[i]; i++)
        if (!strcmp(cs_bn_kernels[i]->name, name))
            k = cs_bn_kernels[i];
    if (!k || !k->exp_x2 || !runs(k) || rounds < 1) {
        fprintf(stderr, "bn_rate x2: no paired kernel %s here\n", name);
        return 1;
    }
    printf("# %s; paired secret-exponent exponentiation, wall us per pair, %d rounds\n",
           OpenSSL_version(OPENSSL_VERSION), rounds);
    for (int i = 0; i < ns; i++)
        x2_line(k, sizes[i], rounds);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned sizes[16] = {1024, 1536, 2048, 3072, 4096};
    int ns = 5;
    if (argc > 1 && !strcmp(argv[1], "x2"))
        return x2_main(argc, argv);
    if (argc > 1) {
        ns = 0;
        for (char *s = strtok(argv[1], ","); s && ns < 16; s = strtok(NULL, ","))
            sizes[ns++] = (unsigned)atoi(s);
    }
    unsigned long tsc_khz = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "cpu MHz", 7) && !tsc_khz)
            tsc_khz = (unsigned long)(atof(strchr(line, ':') + 1) * 1000);
    if (f)
        fclose(f);
    double ghz = tsc_khz ? tsc_khz / 1e6 : 1.0;
    cpr = core_per_ref();
    printf("# TSC %.3f GHz; core cycles per reference cycle %.3f (dependent-add chain)\n", ghz,
           cpr);
    printf("# cyc/mul, cyc/sqr: reference cycles; bound: core cycles; xbnd: core cycles over bound\n");
    printf("# side         bits dig/w  cyc/mul    bound  xbnd  cyc/sqr    bound  xbnd    exp-us\n");
    for (int s = 0; s < ns; s++) {
        libcrypto_line(sizes[s], ghz);
        for (int i = 0; cs_bn_kernels[i]; i++) {
            const cs_bn_kernel *k = cs_bn_kernels[i];
            int want = argc <= 2;
            for (int j = 2; j < argc; j++)
                want |= !strcmp(argv[j], k->name);
            if (want && runs(k)) {
                kernel_line(k, sizes[s], ghz);
                if (k->exp_x2)
                    pair_line(k, sizes[s], ghz);
            }
        }
    }
    return 0;
}
