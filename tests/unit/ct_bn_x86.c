/* Constant-time check of each x86-64 kernel's secret-exponent path, run under
 * valgrind memcheck: base and exponent are marked undefined so a branch or
 * memory index depending on them is reported (the runner fails the suite on
 * any report). Kernels the CPU (as valgrind presents it) lacks are skipped:
 * valgrind 3.19 emulates no AVX-512, so the IFMA kernel is skipped under it;
 * its ladders and table read are the ones checked here through the AVX2
 * kernel. Prints TAP. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../kernels/bn/bn_kernel.h"
#include "support/tap.h"

#if defined(__x86_64__)
#include "../../kernels/bn/x86_64/x86_kernels.h"

static cs_mont mont;

/* Whether the CPU offers what kernel k needs. */
static int kernel_runs(const cs_bn_kernel *k)
{
    __builtin_cpu_init();
    if ((k->cpu_features & CS_CPU_AVX512IFMA) &&
        !(__builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vl")))
        return 0;
    if ((k->cpu_features & CS_CPU_AVX2) && !__builtin_cpu_supports("avx2"))
        return 0;
    if ((k->cpu_features & CS_CPU_FMA) && !__builtin_cpu_supports("fma"))
        return 0;
    if ((k->cpu_features & CS_CPU_BMI2) && !__builtin_cpu_supports("bmi2"))
        return 0;
    if (k->cpu_features & CS_CPU_ADX) {
        unsigned a, b, c, d;
        __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
        if (!(b & (1u << 19)))
            return 0;
    }
    return 1;
}

/* Random odd number of `bits` bits in n limbs, top bit set. */
static void rand_modulus(cs_limb *m, size_t n, unsigned bits)
{
    uint8_t b[CS_BN_MAX_LIMBS * CS_LIMB_BYTES];
    size_t nb = (bits + 7) / 8;
    tap_rng_bytes(b, nb);
    if (bits % 8)
        b[nb - 1] &= (uint8_t)((1u << (bits % 8)) - 1);
    b[(bits - 1) / 8] |= (uint8_t)(1u << ((bits - 1) % 8));
    b[0] |= 1;
    cs_limbs_from_le_bytes(m, n, b, nb);
}

/* One secret exp by k with a and e undefined, compared afterwards with the
 * portable kernel's public path. */
static int ct_case(const cs_bn_kernel *k, unsigned bits, size_t ebits, int extra)
{
    size_t n = (bits + 63) / 64 + extra, el = (ebits + 63) / 64;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], e[CS_BN_MAX_EXP_BITS / 64];
    cs_limb r[CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    rand_modulus(m, n, bits);
    if (cs_mont_init(&mont, m, n))
        return 0;
    rand_modulus(a, n, bits - 1);
    uint8_t eb[CS_BN_MAX_EXP_BITS / 8];
    tap_rng_bytes(eb, (ebits + 7) / 8);
    cs_limbs_from_le_bytes(e, el, eb, (ebits + 7) / 8);

    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(e, el * sizeof(cs_limb));
    int rc = k->exp(r, a, e, ebits, &mont, 1);
    VALGRIND_MAKE_MEM_DEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(e, el * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(cs_limb));
    int rc2 = cs_bn_portable.exp(want, a, e, ebits, &mont, 0);
    return rc == 0 && rc2 == 0 && memcmp(r, want, n * sizeof(cs_limb)) == 0;
}

/* mont_mul/mont_sqr on undefined operands. */
static int ct_mul_case(const cs_bn_kernel *k, unsigned bits)
{
    size_t n = (bits + 63) / 64;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], r[CS_BN_MAX_LIMBS];
    rand_modulus(m, n, bits);
    if (cs_mont_init(&mont, m, n))
        return 0;
    rand_modulus(a, n, bits - 1);
    rand_modulus(b, n, bits - 1);
    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(b, n * sizeof(cs_limb));
    k->mont_mul(r, a, b, &mont);
    k->mont_sqr(r, r, &mont);
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(cs_limb));
    return 1;
}

int main(void)
{
    static const struct {
        unsigned bits;
        size_t ebits;
        int extra;
    } cases[] = {
        {1024, 1024, 0}, {2048, 256, 0}, {2047, 2047, 1}, {1536, 1536, 0},
    };
    const cs_bn_kernel *ks[] = {&cs_bn_x86_ifma, &cs_bn_x86_avx2, &cs_bn_x86_fma,
                                &cs_bn_x86_adx, &cs_bn_x86_mulx};
    tap_rng_seed(0x6374783836ULL);
    tap_diag("valgrind: %s", RUNNING_ON_VALGRIND ? "yes" : "no (checks are not meaningful)");
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        if (!kernel_runs(ks[j])) {
            tap_skip("%s: not offered by this CPU (or by valgrind's)", ks[j]->name);
            continue;
        }
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
            tap_ok(ct_case(ks[j], cases[i].bits, cases[i].ebits, cases[i].extra),
                   "%s: consttime exp, %u-bit modulus, %zu-bit secret exponent%s", ks[j]->name,
                   cases[i].bits, cases[i].ebits, cases[i].extra ? ", top limb zero" : "");
        tap_ok(ct_mul_case(ks[j], 2048), "%s: mont_mul/mont_sqr on secret operands", ks[j]->name);
    }
    return tap_done();
}
#else
int main(void)
{
    tap_skip("x86-64 kernels: not an x86-64 build");
    return tap_done();
}
#endif
