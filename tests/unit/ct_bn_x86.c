/* Constant-time check of each x86-64 kernel's secret-exponent path, run under
 * valgrind memcheck: base and exponent are marked undefined so a branch or
 * memory index depending on them is reported (the runner fails the suite on
 * any report). Kernels the CPU (as valgrind presents it) lacks are skipped.
 * Valgrind 3.19 executes no AVX-512 and hides ADX from CPUID (it does execute
 * adcx/adox), so ADX is probed by running one, and the IFMA kernel is checked
 * by the second build of this file, ct_bn_x86_avx512emu (CT_AVX512_EMULATED,
 * mk/ctemu.mk): linked with ifma.c compiled over tests/unit/ctemu/avx512_emul.h,
 * it checks only that kernel, at every size it specialises. Prints TAP. */
#include <valgrind/memcheck.h>

#include "kernels/bn/bn_kernel.h"
#include "support/tap.h"

#if defined(__x86_64__)
#include "kernels/bn/x86_64/x86_kernels.h"
#include "support/bn_x86_runs.h"
#include "support/ct_bn_cases.h"
#include "support/rand_limbs.h"

#ifdef CT_AVX512_EMULATED
#define AVX512_EMULATED 1
#else
#define AVX512_EMULATED 0
#endif

/* The paired entry (RSA CRT halves): both bases and exponents (ebits
 * bits) undefined, checked afterwards against the portable kernel's public
 * path. */
static int ct_x2_case(const cs_bn_kernel *k, unsigned bits, unsigned ebits)
{
    static cs_mont mont2;
    size_t n = (bits + 63) / 64;
    cs_limb m[2][CS_BN_MAX_LIMBS], a[2][CS_BN_MAX_LIMBS], e[2][CS_BN_MAX_LIMBS];
    cs_limb r[2][CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    cs_mont *mt[2] = {&ct_mont, &mont2};
    for (int h = 0; h < 2; h++) {
        rand_odd_limbs(m[h], n, bits);
        rand_odd_limbs(a[h], n, bits - 1);
        rand_odd_limbs(e[h], n, ebits - 3 * (unsigned)h); /* unequal lengths too */
        if (cs_mont_init(mt[h], m[h], n))
            return 0;
    }
    VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof a);
    VALGRIND_MAKE_MEM_UNDEFINED(e, sizeof e);
    int rc = k->exp_x2(r[0], a[0], e[0], ebits, mt[0], r[1], a[1], e[1], ebits, mt[1]);
    VALGRIND_MAKE_MEM_DEFINED(a, sizeof a);
    VALGRIND_MAKE_MEM_DEFINED(e, sizeof e);
    VALGRIND_MAKE_MEM_DEFINED(r, sizeof r);
    int ok = rc == 0;
    for (int h = 0; h < 2; h++)
        ok &= cs_bn_portable.exp(want, a[h], e[h], ebits, mt[h], 0) == 0 &&
              memcmp(r[h], want, n * sizeof(cs_limb)) == 0;
    return ok;
}

int main(void)
{
    static const struct ct_exp_size cases[] = {
#ifndef CT_AVX512_EMULATED
        {1024, 1024, 0}, {2048, 256, 0}, {2047, 2047, 1}, {1536, 1536, 0},
        /* 17 and 18 limbs: the scalar kernels' table read past its 8-word
         * blocks (a single word, a pair) and odd-length squaring rows. */
        {1025, 300, 0}, {1150, 200, 0},
        /* x86_64-fma's 3072/4096-bit product scanning and its generic size
         * (512 bits: 11 digits); short exponents for run time. */
        {3072, 128, 0}, {4096, 64, 0}, {512, 512, 0},
    };
    const cs_bn_kernel *ks[] = {&cs_bn_x86_ifma, &cs_bn_x86_avx2, &cs_bn_x86_fma,
                                &cs_bn_x86_fma512, &cs_bn_x86_adx, &cs_bn_x86_mulx};
#else
        /* Every size ifma.c specialises (1024 with its squaring, 1536, 2048,
         * 3072, 4096), its generic code (512, 1280) and each ladder window
         * (3, 4, 5 bits); exponents shortened at the top sizes for run time.
         * For fma512.c: 2, 3, 4, 5, 8 and 10 vectors of eight digits. */
        {1024, 1024, 0}, {1536, 1536, 0}, {2048, 2048, 0}, {2047, 2047, 1},
        {3072, 600, 0}, {4096, 300, 0}, {512, 512, 0}, {1280, 100, 0},
    };
    const cs_bn_kernel *ks[] = {&cs_bn_x86_ifma, &cs_bn_x86_fma512};
    tap_diag("AVX-512 emulated (tests/unit/ctemu/avx512_emul.h): checks the kernels' C");
#endif
    tap_rng_seed(0x6374783836ULL);
    tap_diag("valgrind: %s", RUNNING_ON_VALGRIND ? "yes" : "no (checks are not meaningful)");
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        if (!bn_x86_kernel_runs(ks[j], AVX512_EMULATED, RUNNING_ON_VALGRIND)) {
            tap_skip("%s: not offered by this CPU (or by valgrind's)%s", ks[j]->name,
                     ks[j]->cpu_features & (CS_CPU_AVX512IFMA | CS_CPU_AVX512F)
                         ? "; checked emulated by ct_bn_x86_avx512emu" : "");
            continue;
        }
        ct_exp_cases(ks[j], cases, sizeof cases / sizeof cases[0], 1);
        tap_ok(ct_mul_case(ks[j], 2048), "%s: mont_mul/mont_sqr on secret operands", ks[j]->name);
#ifndef CT_AVX512_EMULATED
        /* The ADX kernel's straight-line code (adx_fixed.S). */
        if (ks[j] == &cs_bn_x86_adx)
            for (unsigned bits = 1024; bits <= 1536; bits += 512)
                tap_ok(ct_mul_case(ks[j], bits),
                       "%s: mont_mul/mont_sqr on secret operands, %u bits (straight-line code)",
                       ks[j]->name, bits);
#endif
        /* The pair's sizes (ifma_x2.c): 20 digits; 32 with 29..32 used; 40
         * with 37..40; exponents shortened above 1024 bits for run time. */
        static const unsigned x2[][2] = {{1024, 1024}, {1472, 200}, {1536, 300}, {1600, 64},
                                         {1650, 64},   {1900, 64},  {1950, 64},  {1984, 64},
                                         {2048, 200}};
        for (size_t i = 0; ks[j]->exp_x2 && i < sizeof x2 / sizeof x2[0]; i++)
            tap_ok(ct_x2_case(ks[j], x2[i][0], x2[i][1]),
                   "%s: paired consttime exp (exp_x2), %u bits, %u-bit exponents", ks[j]->name,
                   x2[i][0], x2[i][1]);
    }
    return tap_done();
}
#else
TAP_SKIP_MAIN("x86-64 kernels: not an x86-64 build")
#endif
