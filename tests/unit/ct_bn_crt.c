/* Constant-time check of the RSA CRT recombination (kernels/bn/crt.c),
 * under valgrind memcheck: p, q, iqmp, the half results and p's Montgomery
 * constants marked undefined, so any branch or index on them is reported.
 * Its arithmetic is checked end to end against stock's signatures
 * (tests/versions/pairing.bats, modexp_api.bats). Prints TAP. */
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../kernels/bn/bn_kernel.h"
#include "../../kernels/bn/crt.h"
#include "support/rand_limbs.h"
#include "support/tap.h"

static cs_mont mont;

#define UNDEF(x, n) VALGRIND_MAKE_MEM_UNDEFINED((x), (n) * sizeof(cs_limb))
#define DEF(x, n) VALGRIND_MAKE_MEM_DEFINED((x), (n) * sizeof(cs_limb))

/* One recombination at `bits`-bit primes with every secret undefined;
 * iqmp_above: an iqmp not below p, which must be refused (-1). */
static int ct_case(unsigned bits, int iqmp_above)
{
    size_t n = (bits + CS_LIMB_BITS - 1) / CS_LIMB_BITS;
    cs_limb p[CS_BN_MAX_LIMBS / 2], q[CS_BN_MAX_LIMBS / 2], iqmp[CS_BN_MAX_LIMBS / 2];
    cs_limb mp[CS_BN_MAX_LIMBS / 2], mq[CS_BN_MAX_LIMBS / 2], out[CS_BN_MAX_LIMBS];
    rand_odd_limbs(p, n, bits);
    rand_odd_limbs(q, n, bits);
    if (cs_mont_init(&mont, p, n))
        return 0;
    rand_odd_limbs(iqmp, n, bits - 1);
    if (iqmp_above)
        memcpy(iqmp, p, sizeof iqmp);
    rand_odd_limbs(mp, n, bits - 1);
    rand_odd_limbs(mq, n, bits - 1);
    UNDEF(p, n), UNDEF(q, n), UNDEF(iqmp, n), UNDEF(mp, n), UNDEF(mq, n);
    /* mont.m[0] stays defined: the engine checks that p is odd (it always
     * is: nothing secret), the rest of p's constants are secret. */
    UNDEF(mont.m + 1, n - 1), UNDEF(mont.rr, n), UNDEF(mont.one, n), UNDEF(&mont.n0, 1);
    int rc = cs_bn_crt_recombine(out, mp, mq, p, q, iqmp, &mont, n);
    DEF(out, 2 * n), DEF(&mont.n0, 1);
    return iqmp_above ? rc == -1 : rc == 0;
}

int main(void)
{
    static const unsigned sizes[] = {512, 1024, 1536, 2048, 3072};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tap_ok(ct_case(sizes[i], 0), "CRT recombination, %u-bit primes, secrets undefined",
               sizes[i]);
        tap_ok(ct_case(sizes[i], 1), "%u-bit primes: iqmp not below p is refused", sizes[i]);
    }
    return tap_done();
}
