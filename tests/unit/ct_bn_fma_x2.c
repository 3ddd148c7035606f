/* Constant-time check of the FMA kernel's paired exponentiation
 * (kernels/bn/x86_64/fma_x2.c) under valgrind memcheck at the ends of the
 * 21-digit range of its paired code (ct_bn_x86 checks 1024 bits) and at two
 * sizes it serves half by half (1536, 998 bits), exponents of unequal
 * lengths.
 * Both bases and exponents are undefined through the call; the results are
 * then checked against the portable kernel's public path. Prints TAP. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../kernels/bn/bn_kernel.h"
#include "support/rand_limbs.h"
#include "support/tap.h"

#if defined(__x86_64__)
#include "../../kernels/bn/x86_64/x86_kernels.h"

/* exp_x2 of two bits-bit moduli with ebits-bit secret exponents (the
 * second three bits shorter) against two public portable exps. */
static int ct_pair(unsigned bits, unsigned ebits)
{
    static cs_mont mt[2];
    size_t n = (bits + 63) / 64;
    cs_limb m[2][CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS];
    cs_limb r[2][CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    for (int h = 0; h < 2; h++) {
        rand_odd_limbs(m[h], n, bits);
        rand_odd_limbs(a[h], n, bits - 1);
        rand_odd_limbs(e[h], (ebits + 63) / 64, ebits - 3 * (unsigned)h);
        if (cs_mont_init(&mt[h], m[h], n))
            return 0;
    }
    VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof a);
    VALGRIND_MAKE_MEM_UNDEFINED(e, sizeof e);
    int rc = cs_bn_x86_fma.exp_x2(r[0], a[0], e[0], ebits, &mt[0], r[1], a[1], e[1], ebits,
                                  &mt[1]);
    VALGRIND_MAKE_MEM_DEFINED(a, sizeof a);
    VALGRIND_MAKE_MEM_DEFINED(e, sizeof e);
    VALGRIND_MAKE_MEM_DEFINED(r, sizeof r);
    int ok = rc == 0;
    for (int h = 0; h < 2; h++)
        ok &= cs_bn_portable.exp(want, a[h], e[h], ebits, &mt[h], 0) == 0 &&
              memcmp(r[h], want, n * sizeof(cs_limb)) == 0;
    return ok;
}

int main(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        tap_skip("x86_64-fma paired exp: no AVX2 and FMA here (or in valgrind's CPU)");
        return tap_done();
    }
    tap_rng_seed(0x6374666d6132ull);
    tap_diag("valgrind: %s", RUNNING_ON_VALGRIND ? "yes" : "no (checks are not meaningful)");
    static const struct {
        unsigned bits, ebits;
    } cases[] = {{999, 999}, {1048, 1048}, {1536, 200}, {998, 300}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tap_ok(ct_pair(cases[i].bits, cases[i].ebits),
               "x86_64-fma: paired consttime exp (exp_x2), %u-bit moduli, %u-bit secret exponents",
               cases[i].bits, cases[i].ebits);
    return tap_done();
}
#else
TAP_SKIP_MAIN("x86_64-fma paired exp: not an x86-64 build")
#endif
