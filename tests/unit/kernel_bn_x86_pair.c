/* The IFMA kernel's paired entry (exp_x2, ifma_x2.c) against two portable
 * secret-exponent exponentiations: at both edges of every digit class it
 * serves (987..1038, 1455..1662, 1871..2078 bits) and at sizes inside, with
 * edge bases (0, 1, m-1) and exponents (0, 1, all ones, shorter than the
 * modulus, of unequal lengths); halves of different bit lengths in one
 * class; and the refusals (sizes between classes, halves of different
 * classes) that send the pair back to the caller. No OpenSSL. */
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "tests/unit/support/rand_limbs.h"
#include "tests/unit/support/tap.h"

#if defined(__x86_64__)
#include "kernels/bn/x86_64/x86_kernels.h"

static cs_mont mt[2];

/* e = ebits bits: kind 0 random (top bit set), 1 all ones, 2 zero, 3 one. */
static void exponent(cs_limb *e, size_t ebits, int kind)
{
    size_t el = (ebits + 63) / 64;
    memset(e, 0, CS_BN_MAX_LIMBS * sizeof *e);
    if (kind == 0 && ebits)
        rand_odd_limbs(e, el, (unsigned)ebits);
    for (size_t i = 0; kind == 1 && i < ebits; i++)
        e[i / 64] |= (cs_limb)1 << (i % 64);
    if (kind == 3)
        e[0] = 1;
}

/* a = base kind 0 random below m, 1 zero, 2 one, 3 m-1. */
static void base(cs_limb *a, const cs_mont *m, int kind)
{
    size_t n = m->n;
    memset(a, 0, n * sizeof *a);
    if (kind == 0) {
        for (size_t i = 0; i < n; i++)
            a[i] = tap_rng_u64();
        a[n - 1] &= m->m[n - 1] >> 1;
    } else if (kind == 2) {
        a[0] = 1;
    } else if (kind == 3) {
        memcpy(a, m->m, n * sizeof *a);
        a[0] -= 1; /* m is odd */
    }
}

/* One pair of moduli of bits0 and bits1 bits: every (base, exponent) kind
 * for half 0 beside random ones for half 1 and the reverse, each through
 * exp_x2 and two portable exps; whether all agree (served: want_served). */
static int pair_sizes(const cs_bn_kernel *k, unsigned bits0, unsigned bits1, int want_served)
{
    const unsigned bits[2] = {bits0, bits1};
    cs_limb m[CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS];
    cs_limb r[2][CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    for (int h = 0; h < 2; h++) {
        size_t n = (bits[h] + 63) / 64;
        rand_odd_limbs(m, n, bits[h]);
        if (cs_mont_init(&mt[h], m, n) || cs_bn_prepare(k, &mt[h]))
            return 0;
    }
    int ok = 1;
    for (int c = 0; c < 2 * 4 * 5 && ok; c++) {
        int side = c % 2, bk = (c / 2) % 4, ek = c / 8; /* half side gets the edge kinds */
        size_t eb[2];
        for (int h = 0; h < 2; h++) {
            int edge = h == side;
            base(a[h], &mt[h], edge ? bk : 0);
            /* exponent kinds: full random, all ones, zero, one, a third */
            int kind = edge ? (ek == 4 ? 0 : ek) : 0;
            eb[h] = edge && ek == 4 ? bits[h] / 3 : bits[h] - 5 * (size_t)h;
            exponent(e[h], eb[h], kind);
        }
        int rc = k->exp_x2(r[0], a[0], e[0], eb[0], &mt[0], r[1], a[1], e[1], eb[1], &mt[1]);
        if (!want_served) {
            ok = rc == -1;
            break;
        }
        ok = rc == 0;
        for (int h = 0; h < 2 && ok; h++)
            ok = cs_bn_portable.exp(want, a[h], e[h], eb[h], &mt[h], 1) == 0 &&
                 !memcmp(r[h], want, mt[h].n * sizeof *want);
        if (!ok)
            tap_diag("%u/%u bits: case %d (edge half %d, base %d, exponent %d) differs", bits0,
                     bits1, c, side, bk, ek);
    }
    return ok;
}

int main(void)
{
    const cs_bn_kernel *k = &cs_bn_x86_ifma;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512vl")) {
        tap_skip("%s: CPU lacks AVX-512 IFMA", k->name);
        return tap_done();
    }
    /* Each class's edges, a size for every digit count used inside it. */
    static const unsigned served[] = {987,  1024, 1038, 1455, 1472, 1506, 1507, 1536, 1558,
                                      1600, 1611, 1650, 1662, 1871, 1900, 1922, 1950, 1974,
                                      1984, 2026, 2027, 2048, 2078};
    tap_rng_seed(0x783270616972ull);
    for (size_t i = 0; i < sizeof served / sizeof served[0]; i++)
        tap_ok(pair_sizes(k, served[i], served[i], 1),
               "%s exp_x2: %u-bit halves, edge bases and exponents, against portable", k->name,
               served[i]);
    tap_ok(pair_sizes(k, 1510, 1536, 1) && pair_sizes(k, 2030, 2048, 1) &&
               pair_sizes(k, 1000, 1024, 1),
           "%s exp_x2: halves of different lengths, same digits (1510/1536, 2030/2048, 1000/1024)",
           k->name);
    static const unsigned refused[][2] = {{986, 986},   {1039, 1039}, {1454, 1454},
                                          {1663, 1663}, {1870, 1870}, {2079, 2079},
                                          {1536, 2048}, {1024, 1536}, {1472, 1536}};
    int ok = 1;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (!pair_sizes(k, refused[i][0], refused[i][1], 0)) {
            ok = 0;
            tap_diag("%u/%u bits: served, should be refused", refused[i][0], refused[i][1]);
        }
    tap_ok(ok, "%s exp_x2: refused between classes and for halves of different digit counts",
           k->name);
    return tap_done();
}
#else
TAP_SKIP_MAIN("x86-64 kernels: not an x86-64 build")
#endif
