/* The FMA kernel's paired arithmetic (kernels/bn/x86_64/fma_x2.c): its
 * paired multiplication and squaring against the single-number ones digit
 * for digit (the same almost-Montgomery values, both halves, chained so the
 * operands roam below 2m) across the 21-digit range of its paired code
 * (999..1048 bits) and at sizes it serves half by half; its exp_x2 against
 * the portable kernel on random and edge operands and exponents of unequal
 * lengths; and its refusal of halves of different word counts. */
#include <stdio.h>
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "kernels/bn/engine.h"
#include "tests/unit/support/tap.h"

#if defined(__x86_64__)
#include "kernels/bn/x86_64/x86_kernels.h"

static const cs_bn_kernel *const k = &cs_bn_x86_fma;

/* Random n-limb number of exactly `bits` bits, odd when odd is set. */
static void rand_num(cs_limb *x, size_t n, unsigned bits, int odd)
{
    memset(x, 0, n * sizeof *x);
    for (size_t i = 0; i < (bits + 63) / 64; i++)
        x[i] = tap_rng_u64();
    if (bits % 64)
        x[bits / 64] &= (1ull << (bits % 64)) - 1;
    x[(bits - 1) / 64] |= 1ull << ((bits - 1) % 64);
    if (odd)
        x[0] |= 1;
}

/* A random number below m (n limbs, top limb of m nonzero). */
static void rand_below(cs_limb *x, const cs_limb *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = tap_rng_u64();
    x[n - 1] %= m[n - 1];
}

/* Two bits-bit moduli prepared for the FMA kernel into mt[0], mt[1]. */
static int two_moduli(cs_mont *mt, unsigned bits0, unsigned bits1)
{
    const unsigned b[2] = {bits0, bits1};
    for (int h = 0; h < 2; h++) {
        cs_limb m[CS_BN_MAX_LIMBS];
        size_t n = (b[h] + 63) / 64;
        rand_num(m, n, b[h], 1);
        if (cs_mont_init(&mt[h], m, n) || cs_bn_prepare(k, &mt[h]))
            return 0;
    }
    return 1;
}

/* Paired multiplication and squaring equal the single ones, digit for
 * digit, over `steps` chained steps on two bits-bit moduli. */
static int arith_case(unsigned bits, int steps)
{
    static cs_mont mt[2];
    static cs_limb x[2][CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb y[2][CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb jx[2 * CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb jy[2 * CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb s0[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static cs_limb s1[CS_BN_MAX_WORDS] __attribute__((aligned(64)));
    static unsigned char ctx[1 << 14] __attribute__((aligned(64)));
    const cs_bn_pair_ops *po = k->ops->pair;
    if (!po || po->ctx_bytes > sizeof ctx || !two_moduli(mt, bits, bits))
        return 0;
    size_t words = po->prepare(ctx, &mt[0].prep, &mt[1].prep);
    const size_t w = mt[0].prep.words;
    if (words != 2 * w)
        return 0;
    for (int h = 0; h < 2; h++) {
        cs_limb a[CS_BN_MAX_LIMBS];
        rand_below(a, mt[h].m, mt[h].n);
        k->ops->load(x[h], a, &mt[h].prep);
        rand_below(a, mt[h].m, mt[h].n);
        k->ops->load(y[h], a, &mt[h].prep);
    }
    po->join(jx, x[0], x[1], ctx);
    po->join(jy, y[0], y[1], ctx);
    int ok = 1;
    for (int i = 0; i < steps && ok; i++) {
        const int sq = i % 3 != 2;
        if (sq) {
            po->sqr(jx, jx, jx, ctx);
            mt[0].prep.sqr(x[0], x[0], x[0], &mt[0].prep);
            mt[1].prep.sqr(x[1], x[1], x[1], &mt[1].prep);
        } else {
            po->mul(jx, jx, jy, ctx);
            mt[0].prep.mul(x[0], x[0], y[0], &mt[0].prep);
            mt[1].prep.mul(x[1], x[1], y[1], &mt[1].prep);
        }
        po->split(s0, s1, jx, ctx);
        ok = !memcmp(s0, x[0], w * sizeof *s0) && !memcmp(s1, x[1], w * sizeof *s1);
        if (!ok)
            tap_diag("%u bits: step %d (%s) differs", bits, i, sq ? "sqr" : "mul");
    }
    return ok;
}

/* exp_x2 against the portable kernel for two moduli of bits0 and bits1
 * bits: base kind ak (0: random, 1: zero, 2: one, 3: m-1) and exponent
 * lengths eb0, eb1 (all ones when ones is set). Returns 1 when equal, 2
 * when exp_x2 refused (-1). */
static int exp_case(unsigned bits0, unsigned bits1, int ak, size_t eb0, size_t eb1, int ones)
{
    static cs_mont mt[2];
    cs_limb a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS] = {{0}}, r[2][CS_BN_MAX_LIMBS],
                                   want[CS_BN_MAX_LIMBS];
    const size_t eb[2] = {eb0, eb1};
    if (!two_moduli(mt, bits0, bits1))
        return 0;
    for (int h = 0; h < 2; h++) {
        size_t n = mt[h].n;
        rand_below(a[h], mt[h].m, n);
        if (ak == 1)
            memset(a[h], 0, n * sizeof a[h][0]);
        if (ak == 2)
            memset(a[h], 0, n * sizeof a[h][0]), a[h][0] = 1;
        if (ak == 3)
            memcpy(a[h], mt[h].m, n * sizeof a[h][0]), a[h][0] -= 1;
        for (size_t i = 0; i < (eb[h] + 63) / 64; i++)
            e[h][i] = ones ? ~0ull : tap_rng_u64();
    }
    if (k->exp_x2(r[0], a[0], e[0], eb[0], &mt[0], r[1], a[1], e[1], eb[1], &mt[1]) < 0)
        return 2;
    for (int h = 0; h < 2; h++)
        if (cs_bn_portable.exp(want, a[h], e[h], eb[h], &mt[h], 0) ||
            memcmp(r[h], want, mt[h].n * sizeof want[0]))
            return 0;
    return 1;
}

int main(void)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        tap_skip("x86_64-fma paired arithmetic: no AVX2 and FMA on this CPU");
        return tap_done();
    }
    tap_rng_seed(0x666d61783231ull);
    /* The ends and the middle of the 21-digit range, then sizes served
     * half by half (20, 22, 11, 31, 41 and 82 digits). */
    static const unsigned sizes[] = {1024, 999, 1000, 1048, 998, 1049, 512, 1536, 2048, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        tap_ok(arith_case(sizes[i], sizes[i] > 2048 ? 30 : 200),
               "x86_64-fma paired mul/sqr equal the single ones, %u bits", sizes[i]);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const unsigned b = sizes[i];
        const size_t eb = b > 1536 ? 300 : b;
        int ok = 1;
        for (int ak = 0; ak < 4; ak++)
            ok &= exp_case(b, b, ak, eb, eb, 0) == 1;
        ok &= exp_case(b, b, 0, eb, eb, 1) == 1;               /* all-ones exponents */
        ok &= exp_case(b, b, 0, eb, eb / 2 + 3, 0) == 1;       /* unequal lengths */
        ok &= exp_case(b, b, 0, 1, eb, 0) == 1;                /* one bit */
        ok &= exp_case(b, b, 0, 0, eb, 0) == 1;                /* empty exponent */
        ok &= exp_case(b, b, 0, 2 * eb + 5, 7, 0) == 1;        /* longer than m */
        tap_ok(ok, "x86_64-fma exp_x2 equals the portable exp, %u bits, edge operands", b);
    }
    int ok = 1;
    for (int i = 0; i < 20; i++)
        ok &= exp_case(1024, 1024, 0, 1024, 1024, 0) == 1;
    tap_ok(ok, "x86_64-fma exp_x2, 20 random 1024-bit pairs");
    tap_ok(exp_case(1024, 1536, 0, 64, 64, 0) == 2 && exp_case(1024, 998, 0, 64, 64, 0) == 2 &&
               exp_case(2048, 1536, 0, 64, 64, 0) == 2 && exp_case(1049, 1024, 0, 64, 64, 0) == 1,
           "x86_64-fma exp_x2 refuses halves of different word counts (serves 1049 with 1024: 24 words each)");
    return tap_done();
}
#else
TAP_SKIP_MAIN("x86_64-fma paired arithmetic: not an x86-64 build")
#endif
