/* Constant-time check of the portable kernel's secret-exponent path, run
 * under valgrind memcheck: the exponent and the base are marked undefined,
 * so any branch or memory index that depends on them is reported (and the
 * runner fails the suite on any report). Results are then marked defined and
 * compared with the public-exponent path. Prints TAP. */
#include <valgrind/memcheck.h>

#include "kernels/bn/bn_kernel.h"
#include "support/ct_bn_cases.h"
#include "support/tap.h"

int main(void)
{
    static const struct ct_exp_size cases[] = {
        {256, 256, 0}, {512, 511, 1}, {1024, 1024, 0}, {1024, 1100, 0},
        {2048, 2048, 0}, {2047, 2047, 1}, {4096, 200, 0},
    };
    tap_rng_seed(0x63745f626e5f6578ULL);
    tap_diag("valgrind: %s", RUNNING_ON_VALGRIND ? "yes" : "no (checks are not meaningful)");
    ct_exp_cases(&cs_bn_portable, cases, sizeof cases / sizeof cases[0], 0);
    tap_ok(ct_mul_case(&cs_bn_portable, 2048), "mont_mul/mont_sqr on secret operands, 2048-bit");
    return tap_done();
}
