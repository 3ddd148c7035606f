/* Constant-time check of the portable kernel's secret-exponent path, run
 * under valgrind memcheck: the exponent and the base are marked undefined,
 * so any branch or memory index that depends on them is reported (and the
 * runner fails the suite on any report). Results are then marked defined and
 * compared with the public-exponent path. Prints TAP. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../kernels/bn/bn_kernel.h"
#include "support/tap.h"
#include "support/rand_limbs.h"

static cs_mont mont;

/* One secret-exponent exp with a and e undefined; returns whether it
 * agrees with the public path on the same inputs. */
static int ct_case(unsigned bits, size_t ebits, int extra_limb)
{
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS + extra_limb;
    size_t el = (ebits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], e[CS_BN_MAX_EXP_BITS / CS_LIMB_BITS];
    cs_limb r[CS_BN_MAX_LIMBS], want[CS_BN_MAX_LIMBS];
    rand_odd_limbs(m, n, bits);
    if (cs_mont_init(&mont, m, n))
        return 0;
    /* a < m: one bit shorter than m. */
    rand_odd_limbs(a, n, bits - 1);
    uint8_t eb[CS_BN_MAX_EXP_BITS / 8];
    tap_rng_bytes(eb, (ebits + 7) / 8);
    cs_limbs_from_le_bytes(e, el, eb, (ebits + 7) / 8);

    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(e, el * sizeof(cs_limb));
    int rc = cs_bn_portable.exp(r, a, e, ebits, &mont, 1);
    VALGRIND_MAKE_MEM_DEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(e, el * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(cs_limb));

    int rc2 = cs_bn_portable.exp(want, a, e, ebits, &mont, 0);
    return rc == 0 && rc2 == 0 && memcmp(r, want, n * sizeof(cs_limb)) == 0;
}

/* Secret-operand mont_mul/mont_sqr with both operands undefined. */
static int ct_mul_case(unsigned bits)
{
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb m[CS_BN_MAX_LIMBS], a[CS_BN_MAX_LIMBS], b[CS_BN_MAX_LIMBS], r[CS_BN_MAX_LIMBS];
    rand_odd_limbs(m, n, bits);
    if (cs_mont_init(&mont, m, n))
        return 0;
    rand_odd_limbs(a, n, bits - 1);
    rand_odd_limbs(b, n, bits - 1);
    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(cs_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(b, n * sizeof(cs_limb));
    cs_bn_portable.mont_mul(r, a, b, &mont);
    cs_bn_portable.mont_sqr(r, r, &mont);
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
        {256, 256, 0}, {512, 511, 1}, {1024, 1024, 0}, {1024, 1100, 0},
        {2048, 2048, 0}, {2047, 2047, 1}, {4096, 200, 0},
    };
    tap_rng_seed(0x63745f626e5f6578ULL);
    tap_diag("valgrind: %s", RUNNING_ON_VALGRIND ? "yes" : "no (checks are not meaningful)");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        tap_ok(ct_case(cases[i].bits, cases[i].ebits, cases[i].extra),
               "consttime exp, %u-bit modulus, %zu-bit secret exponent%s", cases[i].bits,
               cases[i].ebits, cases[i].extra ? ", top limb zero" : "");
    tap_ok(ct_mul_case(2048), "mont_mul/mont_sqr on secret operands, 2048-bit");
    return tap_done();
}
