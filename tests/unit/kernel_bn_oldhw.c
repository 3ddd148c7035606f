/* The SPARC and s390x big-number kernels against the portable one (itself
 * tested against a reference in kernel_bn.c): mont_mul, mont_sqr and both
 * exponentiation paths over 256..4096-bit moduli and edge operands, for
 * every non-portable kernel in cs_bn_kernels[] this CPU can run. On SPARC
 * also the v7 multiply/divide helpers against shift-and-add references.
 * Elsewhere it reports one skip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/bn/bn_kernel.h"
#include "runtime/cpu.h"
#include "tests/unit/support/impl_runs.h"
#include "tests/unit/support/tap.h"

#if (defined(__sparc__) && !defined(__arch64__)) || defined(__s390x__)

static cs_mont mont;

static void rand_limbs(cs_limb *a, size_t n)
{
    tap_rng_bytes((uint8_t *)a, n * sizeof(cs_limb));
}

/* Random a < m: random limbs with the top limb below m's top limb. */
static void rand_below(cs_limb *a, const cs_limb *m, size_t n)
{
    rand_limbs(a, n);
    a[n - 1] = m[n - 1] ? a[n - 1] % m[n - 1] : 0;
}

/* One kernel against portable on `iters` random cases per size. Cases 0-2
 * are one of each kind (65537, long and short exponents; all-ones modulus;
 * zero and m-1 operands). quick (plain `make test`; emulated v7 arithmetic
 * is slow): only those three, long exponents of 128 bits, no 3072-bit
 * modulus, and at 4096 bits only case 1 (all-ones modulus, long exponent);
 * `make test-cross` runs everything. */
static void test_kernel(const cs_bn_kernel *k, int iters, int quick)
{
    static const unsigned sizes[] = {256, 512, 736, 1024, 1536, 2048, 3072, 4096};
    const cs_bn_kernel *p = &cs_bn_portable;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si] / CS_LIMB_BITS;
        int bad_mul = 0, bad_exp = 0, cases = 0;
        if (quick && sizes[si] == 3072)
            continue;
        for (int it = 0; it < iters; it++) {
            if (quick && (it > 2 || (sizes[si] > 2048 && it != 1)))
                continue;
            cases++;
            cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS];
            cs_limb e[CS_BN_MAX_LIMBS], r1[CS_BN_MAX_LIMBS], r2[CS_BN_MAX_LIMBS];
            rand_limbs(m, n);
            m[0] |= 1;
            m[n - 1] |= (cs_limb)1 << (CS_LIMB_BITS - 1);
            if (it == 1)
                memset(m + 1, 0xff, (n - 1) * sizeof(cs_limb)); /* all-ones modulus */
            cs_mont_init(&mont, m, n);
            rand_below(a, m, n);
            rand_below(b, m, n);
            if (it == 2) { /* edges: 0, m-1 */
                memset(a, 0, n * sizeof(cs_limb));
                memcpy(b, m, n * sizeof(cs_limb));
                b[0] -= 1;
            }
            p->mont_mul(r1, a, b, &mont);
            k->mont_mul(r2, a, b, &mont);
            bad_mul += memcmp(r1, r2, n * sizeof(cs_limb)) != 0;
            p->mont_sqr(r1, b, &mont);
            memcpy(r2, b, n * sizeof(cs_limb));
            k->mont_sqr(r2, r2, &mont); /* in place */
            bad_mul += memcmp(r1, r2, n * sizeof(cs_limb)) != 0;
            /* Exponents: 65537, full size (up to 1024 bits: emulated SPARC v7
             * multiplies in software and is slow), short. */
            size_t full = n * CS_LIMB_BITS > 1024 ? 160 : n * CS_LIMB_BITS;
            if (quick && full > 128)
                full = 128;
            size_t ebits = it % 3 == 0 ? 17 : it % 3 == 1 ? full : (size_t)(1 + it * 37 % 300);
            rand_limbs(e, n);
            if (ebits == 17) {
                memset(e, 0, n * sizeof(cs_limb));
                e[0] = 65537;
            }
            for (int ct = 0; ct < 2; ct++) {
                p->exp(r1, b, e, ebits, &mont, ct);
                bad_exp += k->exp(r2, b, e, ebits, &mont, ct) != 0;
                bad_exp += memcmp(r1, r2, n * sizeof(cs_limb)) != 0;
            }
        }
        tap_ok(bad_mul == 0, "%s mont_mul/sqr = portable, %u bits (%d cases)", k->name,
               sizes[si], cases);
        tap_ok(bad_exp == 0, "%s exp = portable, %u bits", k->name, sizes[si]);
    }
}

#if defined(__sparc__)
uint64_t cs_v7_umul64(uint32_t a, uint32_t b);

/* a*b by shift and add only (no multiply instruction or helper). */
static uint64_t ref_mul64(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++)
        r += ((b >> i) & 1) ? a << i : 0;
    return r;
}

/* The v7 helpers (linked into this test from kernels/bn/sparc) against the
 * references: products exactly; quotients and remainders by q*d + r = n,
 * r < d. Operands of mixed lengths and signs. */
static void test_v7_helpers(void)
{
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t x = tap_rng_u64() >> (tap_rng_u64() % 64);
        uint64_t y = tap_rng_u64() >> (tap_rng_u64() % 64);
        uint32_t a = (uint32_t)x, b = (uint32_t)y;
        volatile uint64_t vx = x, vy = y; /* keep the compiler's helpers in play */
        volatile uint32_t va = a, vb = b;
        volatile int32_t sa = (int32_t)a, sb = (int32_t)b | 1;
        bad += cs_v7_umul64(a, b) != ref_mul64(a, b);
        bad += va * vb != (uint32_t)ref_mul64(a, b);
        bad += vx * vy != ref_mul64(x, y);
        bad += (int64_t)sa * sb != (int64_t)ref_mul64((uint64_t)(int64_t)sa, (uint64_t)(int64_t)sb);
        if (y) {
            uint64_t q = vx / vy, r = vx % vy;
            bad += ref_mul64(q, y) + r != x || r >= y;
            int64_t sq = (int64_t)vx / (int64_t)(vy | 1), sr = (int64_t)vx % (int64_t)(vy | 1);
            bad += (int64_t)ref_mul64((uint64_t)sq, y | 1) + sr != (int64_t)x;
        }
        if (b) {
            uint32_t q = va / vb, r = va % vb;
            bad += (uint32_t)ref_mul64(q, b) + r != a || r >= b;
            int32_t sq = sa / sb, sr = sa % sb;
            bad += (int32_t)(uint32_t)ref_mul64((uint64_t)sq, (uint64_t)sb) + sr != sa;
        }
    }
    tap_ok(bad == 0, "SPARC v7 multiply/divide helpers (%d mismatches)", bad);
}
#endif

int main(void)
{
    tap_rng_seed(0x6f6c646877ULL);
    uint32_t have = cs_cpu_probe();
#if defined(__sparc__)
    test_v7_helpers();
#endif
    int tested = 0;
    for (size_t i = 1; cs_bn_kernels[i]; i++) {
        const cs_bn_kernel *k = cs_bn_kernels[i];
        if (!impl_runs(k->name, k->cpu_features, have))
            continue;
        const char *full = getenv("CS_CROSS_FULL"); /* set by make test-cross */
        test_kernel(k, 6, !(full && !strcmp(full, "1")));
        tested++;
    }
    if (!tested)
        tap_skip("no old-hardware kernel runs on this CPU");
    return tap_done();
}
#else
TAP_SKIP_MAIN("no SPARC or s390x kernels on this architecture")
#endif
